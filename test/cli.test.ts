import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { OPTIONS } from '../src/config/options.js';
import { accountFingerprint } from '../src/runtime/fingerprint.js';
import { BIN, startCli, untilGone } from './cli-process.js';
import { basic } from './helpers.js';

/** The real bin, ended after the test. */
function cli(args: string[], env?: Record<string, string>) {
  const started = startCli(args, env, false);
  onTestFinished(() => {
    started.child.kill('SIGKILL');
  });
  return started;
}

/** Runs the bin to its exit. */
async function run(
  args: string[],
  env?: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  const started = cli(args, env);
  // 'close', not 'exit': the pipes are drained by then.
  const code = await new Promise<number | null>((resolve) => started.child.once('close', resolve));
  return { code, out: started.out(), err: started.err() };
}

/** Starts the bin and resolves once its banner is out, with its base URL and what it printed so far. */
const start = cli;

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'labelmock-cli-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const auth = { authorization: basic('test_cli') };

describe('the labelmock bin (src/cli.ts)', () => {
  it('labelmock --help lists every flag with its environment variable and default, exit 0', async () => {
    const { code, out, err } = await run(['--help']);
    expect(code).toBe(0);
    expect(err).toBe('');
    const help = out.replace(/\s+/g, ' ');
    for (const option of OPTIONS) {
      expect(help).toContain(option.arg === undefined ? `--${option.flag} ` : `--${option.flag} <${option.arg}>`);
      expect(help).toContain(`default: ${option.shownDefault}, env: ${option.env})`);
    }
    expect(help).toContain('--config <FILE>');
    expect(help).toContain('env: LABELMOCK_CONFIG');
    expect(help).toContain('-v, --version');
  });

  it('labelmock --version prints the package.json version, exit 0', async () => {
    const { code, out } = await run(['--version']);
    expect(code).toBe(0);
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(out).toBe(`${pkg.version}\n`);
  });

  it('labelmock runs with the ZodEffects fast path on: GET /_mock/health says fast_validation true', async () => {
    // The bundle is what users run: a fix decided by the method's source text was silently off there.
    const server = start(['--port', '0', '--log', 'off']);
    const res = await fetch(`${await server.base}/_mock/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', fast_validation: true });
    expect(server.err()).toBe('');
  });

  it('labelmock --shard-id NAME answers Labelmock-Shard on every answer and names it in /_mock/health', async () => {
    const base = await start(['--port', '0', '--log', 'off', '--shard-id', 'shard-2']).base;
    const answers = [
      await fetch(`${base}/_mock/health`),
      await fetch(`${base}/v1/tasks`),
      await fetch(`${base}/v1/tasks`, { headers: auth }),
      await fetch(`${base}/nowhere`),
      await fetch(`${base}/metrics`),
    ];
    expect(answers.map((res) => [res.status, res.headers.get('labelmock-shard')])).toEqual([
      [200, 'shard-2'],
      [401, 'shard-2'],
      [200, 'shard-2'],
      [404, 'shard-2'],
      [200, 'shard-2'],
    ]);
    expect(await answers[0]?.json()).toMatchObject({ shard: 'shard-2' });
    const stream = await fetch(`${base}/_mock/events`, { headers: auth });
    expect(stream.headers.get('labelmock-shard')).toBe('shard-2');
    await stream.body?.cancel();
    const lone = await fetch(`${await start(['--port', '0', '--log', 'off']).base}/_mock/health`);
    expect(lone.headers.has('labelmock-shard')).toBe(false);
    expect(await lone.json()).toMatchObject({ shard: null });
    const refused = await run(['--shard-id', 'shard 2']);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('must be 1-63 of [A-Za-z0-9_.-], starting with a letter or digit');
  });

  it("labelmock is bundled without esbuild's keepNames: no function is wrapped to rename it", () => {
    // keepNames wrapped every function, closures made per request included, and cost the bin a third of its rate.
    const bundle = readFileSync(BIN[0] as string, 'utf8');
    expect(bundle.length).toBeGreaterThan(1_000_000);
    expect(bundle).not.toMatch(/\b__name\(/);
  });

  it('labelmock --port abc exits 2 with one readable line, no stack and no zod dump', async () => {
    const { code, out, err } = await run(['--port', 'abc']);
    expect(code).toBe(2);
    expect(err).toBe('labelmock: --port must be an integer between 0 and 65535 (got "abc")\n');
    expect(out).toBe('');
  });

  it('labelmock with PORT=abc in the environment names the variable, exit 2', async () => {
    const { code, err } = await run([], { PORT: 'abc' });
    expect(code).toBe(2);
    expect(err).toBe('labelmock: PORT must be an integer between 0 and 65535 (got "abc")\n');
  });

  it('labelmock --data-dir on a file, or where no folder can be made, exits 1 saying why', async () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, 'x');
    const onFile = await run(['--port', '0', '--data-dir', file]);
    expect([onFile.code, onFile.err]).toEqual([
      1,
      `labelmock: cannot use --data-dir ${file}: ${file} is a file, not a folder\n`,
    ]);
    // /proc refuses every new entry: Node's recursive mkdir retried forever there.
    const virtual = await run(['--port', '0', '--data-dir', '/proc/labelmock-test/data']);
    expect(virtual.code).toBe(1);
    expect(virtual.err).toMatch(/cannot make \/proc\/labelmock-test: no folder can be made there/);
  });

  it('labelmock --prot 1 exits 2 suggesting --port', async () => {
    const { code, err } = await run(['--prot', '1']);
    expect(code).toBe(2);
    expect(err).toBe("labelmock: unknown option '--prot' (Did you mean --port?)\n");
  });

  it('labelmock --port on a port in use exits 1 with one line suggesting --port 0', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => {
      blocker.close();
    });
    const port = (blocker.address() as { port: number }).port;
    const { code, out, err } = await run(['--port', String(port)]);
    expect(code).toBe(1);
    expect(err).toBe(
      `labelmock: port ${port} on 127.0.0.1 is already in use; ` +
        `pick another with --port N, or --port 0 for a free one\n`,
    );
    expect(out).toBe('');
  });

  it('labelmock --host 127.1 is loopback however spelt: a rebound Host is refused, localhost answered', async () => {
    const server = start(['--host', '127.1', '--port', '0', '--log', 'off']);
    const base = await server.base;
    const { port } = new URL(base);
    const withHost = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/v1/tasks', headers: { host, ...auth } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    expect(await withHost('rebind.attacker.example')).toBe(400);
    expect(await withHost(`localhost:${port}`)).toBe(200);
  });

  it('labelmock --exit-with-parent stops once the process that started it is SIGKILLed', async () => {
    // A parent like a test runner: it starts the server and is then killed, leaving the server to init.
    const parentScript = [
      "const { spawn } = require('node:child_process');",
      `spawn(process.execPath, ${JSON.stringify([...BIN, '--port', '0', '--log', 'off', '--exit-with-parent'])},`,
      "  { stdio: ['ignore', 'inherit', 'inherit'] });",
      'setInterval(() => {}, 1000);',
    ].join('\n');
    const parent = spawn(process.execPath, ['-e', parentScript]);
    onTestFinished(() => void parent.kill('SIGKILL'));
    let out = '';
    const base = await new Promise<string>((resolve) => {
      parent.stdout.on('data', (chunk) => {
        out += chunk;
        const found = /listening on (http:\/\/\S+)/.exec(out)?.[1];
        if (found) resolve(found);
      });
    });
    expect((await fetch(`${base}/_mock/health`)).status).toBe(200);
    parent.kill('SIGKILL');
    await untilGone(base);
  });

  it('labelmock --host with a name that resolves to nothing exits 1 with one line', async () => {
    const { code, err } = await run(['--host', 'no-such-host.invalid', '--port', '0']);
    expect(code).toBe(1);
    expect(err).toBe(
      'labelmock: --host no-such-host.invalid does not resolve to an address; ' +
        'use --host 127.0.0.1, or an address of this machine\n',
    );
  });

  it('labelmock --config FILE starts with the file settings, a flag winning over the file', async () => {
    const dir = tempDir();
    const file = join(dir, 'labelmock.json');
    writeFileSync(file, JSON.stringify({ port: 0, completion: 'delay:5', cors: 'http://localhost:5173', log: 'off' }));
    const server = start(['--config', file, '--completion', 'immediate']);
    await server.base;
    expect(server.out()).toContain('completion (test keys): immediate');
    expect(server.out()).toContain('CORS allowed for: http://localhost:5173');
  });

  it('labelmock --config FILE with a bad value exits 2 naming the key and the file', async () => {
    const dir = tempDir();
    const file = join(dir, 'labelmock.json');
    writeFileSync(file, JSON.stringify({ 'max-tenants': -1 }));
    const { code, err } = await run(['--config', file]);
    expect(code).toBe(2);
    expect(err).toBe(`labelmock: "max-tenants" in ${file} must be an integer between 1 and 10000000 (got -1)\n`);
  });

  it('labelmock logs one json line per request on stdout when stdout is not a terminal, without the key', async () => {
    const server = start(['--port', '0']);
    const base = await server.base;
    const res = await fetch(`${base}/v1/tasks?limit=1`, { headers: auth });
    expect(res.status).toBe(200);
    await res.text();
    const health = await fetch(`${base}/_mock/health`);
    expect(health.status).toBe(200);
    expect((await health.json()).status).toBe('ok');
    await expect
      .poll(
        () =>
          server
            .out()
            .split('\n')
            .filter((line) => line.startsWith('{')).length,
      )
      .toBe(2);
    const [tasks, probe] = server
      .out()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    expect(tasks).toMatchObject({
      method: 'GET',
      path: '/v1/tasks',
      status: 200,
      tenant: accountFingerprint('test', 'cli'),
    });
    expect(probe).toMatchObject({ method: 'GET', path: '/_mock/health', status: 200, tenant: '-' });
    expect(server.out()).not.toContain('test_cli');
    expect(server.out()).not.toContain('test:cli');
  });

  it('labelmock --log off prints the banner and nothing per request', async () => {
    const server = start(['--port', '0', '--log', 'off']);
    const base = await server.base;
    const res = await fetch(`${base}/v1/tasks`, { headers: auth });
    expect(res.status).toBe(200);
    await res.text();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.out()).not.toContain('/v1/tasks"');
    expect(server.out().trimEnd().split('\n').at(-1)).toMatch(/^ {2}try: curl/);
    // The inspector's address, with the printed key in its fragment.
    const inspector = /inspector: (\S+)/.exec(server.out())?.[1] ?? '';
    expect(inspector).toMatch(/\/_mock\/ui\/#key=test_local$/);
    expect(server.out()).toMatch(/docs: http:\/\/127\.0\.0\.1:\d+\/docs/);
  });

  it('labelmock --keys FILE names a key of the file in its banner, inspector link and curl: it works', async () => {
    const dir = tempDir();
    const keys = join(dir, 'keys.json');
    writeFileSync(keys, JSON.stringify([{ key: 'sk-ci-1', account: 'acme', mode: 'test' }]));
    const server = start(['--port', '0', '--log', 'off', '--keys', keys]);
    const base = await server.base;
    expect(server.out()).toMatch(/e\.g\. sk-ci-1 \(test\)/);
    expect(server.out()).toMatch(/#key=sk-ci-1/);
    expect(server.out()).not.toMatch(/test_local/);
    const res = await fetch(`${base}/v1/tasks`, { headers: { authorization: basic('sk-ci-1') } });
    expect(res.status).toBe(200);
    await res.text();
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`labelmock on ${signal} stops serving and exits 0 with nothing on stderr`, async () => {
      const server = start(['--port', '0', '--log', 'off']);
      const base = await server.base;
      await (await fetch(`${base}/_mock/health`, { headers: { connection: 'keep-alive' } })).text();
      server.child.kill(signal);
      expect(await server.exited).toBe(0);
      expect(server.err()).toBe('');
      await expect(fetch(`${base}/_mock/health`)).rejects.toThrow();
    });
  }
});
