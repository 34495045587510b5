import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ConfigError, parseCommandLine, readConfig } from '../src/config/index.js';
import { OPTIONS } from '../src/config/options.js';

/** A config file in a fresh folder, removed after the test whatever happens. */
function configFile(content: unknown, name = 'labelmock.json'): { dir: string; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'labelmock-config-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return { dir, path };
}

describe('configuration: --config FILE, precedence, --log, --cors', () => {
  it('labelmock --config FILE reads kebab-case flag names, numbers or strings', () => {
    const { path } = configFile({ port: 4010, completion: 'immediate', 'max-tenants': '12', cors: ['*'], log: 'off' });
    const config = readConfig(['--config', path], {});
    expect(config).toMatchObject({ port: 4010, maxTenants: 12, cors: ['*'], log: 'off' });
    expect(config.completion).toEqual({ mode: 'immediate', delay_ms: 0 });
  });

  it('labelmock --config FILE loses to the environment, which loses to a flag', () => {
    const { path } = configFile({ port: 4010, host: '0.0.0.0', 'max-body-bytes': 100 });
    const env = { LABELMOCK_CONFIG: path, PORT: '5000', HOST: '::1' };
    expect(readConfig(['--host', '127.0.0.2'], env)).toMatchObject({
      port: 5000,
      host: '127.0.0.2',
      maxBodyBytes: 100,
    });
  });

  it('labelmock --config FILE resolves a relative keys path against its own folder', () => {
    const { dir, path } = configFile({ keys: 'keys.json' });
    writeFileSync(join(dir, 'keys.json'), JSON.stringify([{ key: 'sk-1', account: 'acme', mode: 'test' }]));
    expect(readConfig(['--config', path], {}).keys).toEqual([{ key: 'sk-1', account: 'acme', mode: 'test' }]);
  });

  it('labelmock --config FILE with a camelCase key, a typo or an unknown key names it and the right spelling', () => {
    const { path } = configFile({ maxTenants: 3, completon: 'manual', prot: 1, xyzzy: 1 });
    const meant = (name: string, flag: string) =>
      `"${name}" in ${path} is not a setting (did you mean "${flag}"? Keys are the flag names)`;
    expect(() => readConfig(['--config', path], {})).toThrow(
      new ConfigError([
        meant('maxTenants', 'max-tenants'),
        meant('completon', 'completion'),
        meant('prot', 'port'),
        `"xyzzy" in ${path} is not a setting (keys are the flag names: ${OPTIONS.map((o) => o.flag).join(', ')})`,
      ]),
    );
  });

  it('labelmock --config FILE that is missing, not JSON or not an object is one line', () => {
    const missing = join(tmpdir(), 'labelmock-no-such-dir', 'x.json');
    expect(() => readConfig(['--config', missing], {})).toThrow(new ConfigError([`--config ${missing}: no such file`]));
    const notJson = configFile('{port: 1}').path;
    expect(() => readConfig(['--config', notJson], {})).toThrow(/^--config .* is not JSON \(/);
    const array = configFile([1]).path;
    expect(() => readConfig(['--config', array], {})).toThrow(
      new ConfigError([
        `--config ${array} must hold a JSON object keyed by flag name, e.g. {"port": 4010, "completion": "immediate"}`,
      ]),
    );
  });

  it('labelmock reports every bad value at once, naming where each came from', () => {
    const { path } = configFile({ 'callback-journal-size': 0 });
    expect(() => readConfig(['--config', path, '--port', '70000'], { LABELMOCK_LOG: 'loud' })).toThrow(
      new ConfigError([
        '--port must be an integer between 0 and 65535 (got "70000")',
        'LABELMOCK_LOG must be pretty, json or off (got "loud")',
        `"callback-journal-size" in ${path} must be an integer between 1 and 1000000 (got 0)`,
      ]),
    );
  });

  it('labelmock --port takes whole numbers only: 1e3, 0x10, 8.5 and an empty value are refused', () => {
    for (const value of ['1e3', '0x10', '8.5', '']) {
      expect(() => readConfig(['--port', value], {})).toThrow(
        new ConfigError([`--port must be an integer between 0 and 65535 (got ${JSON.stringify(value)})`]),
      );
    }
  });

  it('labelmock treats an empty environment variable as unset', () => {
    expect(readConfig([], { PORT: '', LABELMOCK_COMPLETION: '' })).toMatchObject({
      port: 3000,
      completion: { mode: 'manual' },
    });
  });

  it('labelmock --log defaults to pretty on a terminal and json otherwise', () => {
    expect(readConfig([], {}, { stdoutIsTTY: true }).log).toBe('pretty');
    expect(readConfig([], {}, { stdoutIsTTY: false }).log).toBe('json');
    expect(readConfig(['--log', 'off'], {}, { stdoutIsTTY: true }).log).toBe('off');
  });

  it('labelmock --cors takes * or a comma list of origins, normalized as browsers send them', () => {
    expect(readConfig([], {}).cors).toEqual([]);
    expect(readConfig(['--cors', '*'], {}).cors).toEqual(['*']);
    expect(readConfig(['--cors', 'http://localhost:5173/, HTTPS://App.Example.com'], {}).cors).toEqual([
      'http://localhost:5173',
      'https://app.example.com',
    ]);
    for (const value of ['localhost:5173', 'http://localhost:5173/app', '*,http://a.test', 'ftp://a.test']) {
      expect(() => readConfig(['--cors', value], {})).toThrow(
        /^--cors must be \* or a comma list of origins such as http:\/\/localhost:5173/,
      );
    }
  });

  it('labelmock --help and --version answer text to print, not a configuration', () => {
    const help = parseCommandLine(['--help'], {});
    expect(help.kind).toBe('exit');
    expect(help.kind === 'exit' && help.output).toMatch(/^Usage: labelmock \[options\]/);
    expect(parseCommandLine(['--version'], {})).toEqual({
      kind: 'exit',
      output: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
  });
});
