import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readConfig } from '../src/config.js';

describe('configuration', () => {
  it('defaults to 127.0.0.1:3000, manual completion, open keys', () => {
    expect(readConfig([], {})).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      completion: { mode: 'manual' },
      keys: undefined,
    });
  });

  it('reads --port/--host, falling back to PORT/HOST', () => {
    expect(readConfig(['--port', '4010', '--host=0.0.0.0'], { PORT: '5000' })).toMatchObject({
      port: 4010,
      host: '0.0.0.0',
    });
    expect(readConfig([], { PORT: '5000', HOST: '::1' })).toMatchObject({ port: 5000, host: '::1' });
  });

  it('parses --completion manual, immediate and delay:<ms>', () => {
    expect(readConfig(['--completion', 'immediate'], {}).completion).toEqual({ mode: 'immediate', delay_ms: 0 });
    expect(readConfig(['--completion', 'delay:250'], {}).completion).toEqual({ mode: 'delay', delay_ms: 250 });
    expect(() => readConfig(['--completion', 'later'], {})).toThrow(
      /--completion must be manual, immediate or delay:<ms>/,
    );
  });

  it('rejects a bad port and unknown flags', () => {
    expect(() => readConfig(['--port', 'eighty'], {})).toThrow();
    expect(() => readConfig(['--prot', '1'], {})).toThrow(/Unknown option/);
  });

  it('--keys FILE turns on strict keys and checks the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'labelmock-'));
    // Removed afterwards, pass or fail: every `npm test` used to leave one such folder behind.
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const good = join(dir, 'keys.json');
    writeFileSync(good, JSON.stringify({ keys: [{ key: 'sk-1', account: 'acme', mode: 'live' }] }));
    expect(readConfig(['--keys', good], {}).keys).toEqual([{ key: 'sk-1', account: 'acme', mode: 'live' }]);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify([{ key: 'sk-1', account: 'a b', mode: 'prod' }]));
    expect(() => readConfig(['--keys', bad], {})).toThrow(/--keys .*bad.json/);
  });
});
