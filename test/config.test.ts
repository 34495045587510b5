import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ConfigError, readConfig } from '../src/config/index.js';

describe('configuration', () => {
  it('defaults to 127.0.0.1:3000, manual completion, open keys', () => {
    const config = readConfig([], {});
    expect(config).toMatchObject({ host: '127.0.0.1', port: 3000, completion: { mode: 'manual' } });
    expect(config.keys).toBeUndefined();
  });

  it('reads --port/--host, falling back to PORT/HOST', () => {
    expect(readConfig(['--port', '4010', '--host=0.0.0.0'], { PORT: '5000' })).toMatchObject({
      port: 4010,
      host: '0.0.0.0',
    });
    expect(readConfig([], { PORT: '5000', HOST: '::1' })).toMatchObject({ port: 5000, host: '::1' });
  });

  it('parses --completion manual, immediate, delay:<ms> and reads:<n>', () => {
    expect(readConfig(['--completion', 'immediate'], {}).completion).toEqual({ mode: 'immediate', delay_ms: 0 });
    expect(readConfig(['--completion', 'delay:250'], {}).completion).toEqual({ mode: 'delay', delay_ms: 250 });
    expect(readConfig(['--completion', 'reads:3'], {}).completion).toEqual({ mode: 'reads', delay_ms: 0, reads: 3 });
    expect(() => readConfig(['--completion', 'later'], {})).toThrow(
      /--completion must be manual, immediate, delay:<ms> \(ms at most 86400000\) or reads:<n>/,
    );
    expect(() => readConfig(['--completion', 'reads:0'], {})).toThrow(/--completion must be/);
  });

  it('parses --unknown-params lenient or strict, from the flag or LABELMOCK_UNKNOWN_PARAMS; lenient by default', () => {
    expect(readConfig([], {}).unknownParams).toBe('lenient');
    expect(readConfig(['--unknown-params', 'strict'], {}).unknownParams).toBe('strict');
    expect(readConfig([], { LABELMOCK_UNKNOWN_PARAMS: 'strict' }).unknownParams).toBe('strict');
    expect(() => readConfig(['--unknown-params', 'loose'], {})).toThrow(/--unknown-params/);
  });

  it('parses --rate-limit N/S and off, from the flag, LABELMOCK_RATE_LIMIT or a config object', () => {
    expect(readConfig([], {}).rateLimit).toBeNull();
    expect(readConfig(['--rate-limit', '100/60'], {}).rateLimit).toEqual({ requests: 100, per_seconds: 60 });
    expect(readConfig([], { LABELMOCK_RATE_LIMIT: 'off' }).rateLimit).toBeNull();
    expect(() => readConfig(['--rate-limit', '100 per minute'], {})).toThrow(
      /--rate-limit must be off or N\/S: N requests per S seconds/,
    );
    expect(() => readConfig(['--rate-limit', '0/60'], {})).toThrow(/--rate-limit must be off or N\/S/);
  });

  it('reads --tls as a bare switch, LABELMOCK_TLS as true or false, and the TLS files', () => {
    expect(readConfig([], {}).tls).toBe(false);
    expect(readConfig(['--tls', '--port', '1'], {})).toMatchObject({ tls: true, port: 1 });
    expect(readConfig([], { LABELMOCK_TLS: 'yes' }).tls).toBe(true);
    expect(readConfig(['--tls-dir', '/tmp/x'], {}).tlsDir).toBe('/tmp/x');
    expect(() => readConfig([], { LABELMOCK_TLS: 'maybe' })).toThrow(/LABELMOCK_TLS must be true or false/);
  });

  it('rejects a bad port and unknown flags, one readable line each', () => {
    expect(() => readConfig(['--port', 'eighty'], {})).toThrow(
      new ConfigError(['--port must be an integer between 0 and 65535 (got "eighty")']),
    );
    expect(() => readConfig(['--prot', '1'], {})).toThrow(
      new ConfigError(["unknown option '--prot' (Did you mean --port?)"]),
    );
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
    expect(() => readConfig(['--keys', bad], {})).toThrow(
      /^--keys names a keys file with invalid entries: 0.account must be 1-128 .*bad.json/,
    );
  });
});
