import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatorBin } from '../scripts/generators.js';
import { untilGone } from './cli-process.js';
import { basic, present } from './helpers.js';

/**
 * What a user gets from the registry: the packed tarball installed into an empty app, run with
 * `npx labelmock` and imported in plain Node ESM (no TypeScript loader anywhere).
 */

const run = promisify(execFile);
const ROOT = new URL('..', import.meta.url).pathname;
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const AUTH = basic('test_pkg');
let appDir: string;

beforeAll(async () => {
  appDir = mkdtempSync(join(tmpdir(), 'labelmock-pkg-'));
  // The tarball holds dist/: build it from this checkout first, then pack without running scripts again.
  await run('npm', ['run', '-s', 'build'], { cwd: ROOT });
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', appDir], {
    cwd: ROOT,
  });
  const { filename } = present((JSON.parse(stdout) as { filename: string }[])[0], 'the packed file (npm pack --json)');
  writeFileSync(join(appDir, 'package.json'), JSON.stringify({ name: 'an-app', private: true, type: 'module' }));
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(appDir, filename)], { cwd: appDir });
}, 180_000);

afterAll(() => rmSync(appDir, { recursive: true, force: true }));

const npx = (...args: string[]) => run('npx', ['--no-install', 'labelmock', ...args], { cwd: appDir });

/**
 * Starts the installed bin on a free port and answers its base URL once the banner names it. The
 * bin itself, not `npx`: npx does not pass SIGTERM on and wait, so the exit code would be npx's.
 */
function startBin(): Promise<{ child: ChildProcess; base: string }> {
  const bin = join(appDir, 'node_modules', '.bin', 'labelmock');
  return untilListening(spawn(bin, ['--port', '0', '--log', 'off'], { cwd: appDir }));
}

function untilListening(child: ChildProcess): Promise<{ child: ChildProcess; base: string }> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr?.on('data', (chunk) => {
      err += chunk;
    });
    // No deadline of its own: a start slowed by a loaded machine is waited for (the test's timeout bounds it),
    // and one that fails ends the wait through 'exit' below, with what it printed.
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const base = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (base) {
        resolve({ child, base });
      }
    });
    // stderr too: a start that fails under load says why.
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}${err}`)));
  });
}

/** What the tarball may hold: the bin (one bundle), the library's and the kit's modules, what they read, docs. */
const PACKED = [
  /^(package\.json|README\.md|LICENSE|CHANGELOG\.md|ARCHITECTURE\.md|openapi(-v2|-control)?\.yaml)$/,
  /^dist\/labelmock\.mjs$/,
  /^dist\/(index|app|version|fixtures)\.(js|d\.ts)$/,
  /^dist\/(config|contracts|control|domain|errors|http|openapi|persist)\/.+\.(js|d\.ts)$/,
  /^dist\/(routes|runtime|services|store|synth)\/.+\.(js|d\.ts)$/,
  /^dist\/docs-assets\/[\w.-]+$/,
  /^(fixtures|inspector|docs)\/.+$/,
];

describe('what is published', () => {
  it('npm publish --dry-run passes: a full manifest, a tarball of what the bin and library need only', async () => {
    const { stdout, stderr } = await run('npm', ['publish', '--dry-run', '--ignore-scripts', '--json'], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    });
    // npm corrects a faulty manifest silently but for a warning: none may be needed.
    expect(stderr).not.toMatch(/auto-corrected|npm (warn|error) (?!publish This command requires you to be logged in)/);
    const { labelmock: packed } = JSON.parse(stdout) as { labelmock: { files: { path: string }[]; version: string } };
    expect(packed.version).toBe(VERSION);
    const paths = packed.files.map((file) => file.path);
    expect(paths.filter((path) => !PACKED.some((pattern) => pattern.test(path)))).toEqual([]);
    for (const needed of [
      'LICENSE',
      'dist/labelmock.mjs',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/contracts/cli.js',
    ]) {
      expect(paths).toContain(needed);
    }
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect([manifest.license, manifest.repository?.url, manifest.bin.labelmock]).toEqual([
      'MIT',
      expect.stringMatching(/^git\+https:\/\/github\.com\//),
      'dist/labelmock.mjs',
    ]);
  });
});

describe('the packed package', () => {
  it('npx labelmock --help lists the flags; --version prints the package version', async () => {
    const help = await npx('--help');
    expect(help.stdout).toMatch(/--port/);
    expect(help.stdout).toMatch(/--completion/);
    expect((await npx('--version')).stdout.trim()).toBe(VERSION);
  });

  it('npx labelmock --port 0 serves the API and docs script from the installed package; stops on SIGTERM', async () => {
    const { child, base } = await startBin();
    const res = await fetch(`${base}/v1/tasks`, { headers: { authorization: AUTH } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ docs: [], total: 0 });
    // The docs page's script comes from the package itself (copied at build), not from Scalar's install.
    const script = await fetch(`${base}/docs/assets/scalar.js`);
    expect(script.status).toBe(200);
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('npm start serves the built server, and SIGTERM to npm stops it (no server left behind)', async () => {
    const { child, base } = await untilListening(
      spawn('npm', ['start', '--', '--port', '0', '--log', 'off'], { cwd: ROOT }),
    );
    expect((await fetch(`${base}/v1/tasks`, { headers: { authorization: AUTH } })).status).toBe(200);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    // npm's script shell hands the signal on only because the script execs node: nothing answers now.
    await expect(fetch(`${base}/v1/tasks`)).rejects.toThrow();
  });

  // npx and its shell go on SIGTERM; on SIGKILL (Python's Popen.kill()) npx dies at once and its `sh -c` stays, still
  // the server's parent. Either way the server notices npm went and stops as on SIGTERM.
  it.each(['SIGTERM', 'SIGKILL'] as const)(
    'npx labelmock & then kill -%s $! stops the server: no orphan left answering',
    async (signal) => {
      const { child, base } = await untilListening(
        spawn('npx', ['--no-install', 'labelmock', '--port', '0', '--log', 'off'], { cwd: appDir }),
      );
      expect((await fetch(`${base}/v1/tasks`, { headers: { authorization: AUTH } })).status).toBe(200);
      child.kill(signal);
      await untilGone(base);
    },
  );

  it("import { createApp } from 'labelmock' works in plain Node ESM, and so does the contract kit", async () => {
    const script = [
      "import { createApp } from 'labelmock';",
      "import { registeredContracts } from 'labelmock/contracts';",
      'const app = createApp();',
      "const res = await app.request('/v1/task/imageannotation', {",
      `  method: 'POST', headers: { authorization: '${AUTH}', 'content-type': 'application/json' },`,
      '  body: JSON.stringify({',
      "    attachment: 'https://example.com/a.jpg',",
      "    geometries: { box: { objects_to_annotate: ['car'] } },",
      '  }),',
      '});',
      'const task = await res.json();',
      'const summary = { status: res.status, taskStatus: task.status, contracts: registeredContracts().length };',
      'console.log(JSON.stringify(summary));',
      'app.dispose();',
    ].join('\n');
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: appDir });
    const result = JSON.parse(stdout) as { status: number; taskStatus: string; contracts: number };
    expect(result).toMatchObject({ status: 200, taskStatus: 'pending' });
    expect(result.contracts).toBeGreaterThan(100);
  });

  it("a strict TypeScript app compiles against the installed types; the kit's answers are typed by route", async () => {
    // Whose wrong lines must not compile: a body typed by its route is no `any`.
    const source = [
      "import { MockSession, type JournalEntry } from 'labelmock/contracts';",
      "const mock = new MockSession({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'test_types' });",
      "const list = await mock.client.get('/v1/tasks', { query: { status: 'pending' } });",
      'const ids: string[] = list.body.docs.map((doc) => doc.task_id);',
      '// @ts-expect-error docs is a list of tasks, not a number',
      'const wrong: number = list.body.docs;',
      "const read = await mock.client.get(`/v1/task/${ids[0] ?? ''}`);",
      "const status: 'pending' | 'completed' | 'canceled' | 'error' = read.body.status;",
      'const entries: JournalEntry[] = await mock.requests({ limit: 1 });',
      'export { entries, status, wrong };',
    ].join('\n');
    writeFileSync(join(appDir, 'typed.ts'), source);
    const config = {
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        skipLibCheck: false,
        // Node's types from this checkout: the kit's declarations name Buffer and http's headers.
        typeRoots: [join(ROOT, 'node_modules', '@types')],
        types: ['node'],
      },
      files: ['typed.ts'],
    };
    writeFileSync(join(appDir, 'tsconfig.json'), JSON.stringify(config));
    // This checkout's TypeScript 7 and the 5.9 of generated-clients/: an app on either reads the same types.
    for (const tsc of [join(ROOT, 'node_modules', '.bin', 'tsc'), generatorBin('tsc')]) {
      const compiled = await run(tsc, ['-p', join(appDir, 'tsconfig.json')], { cwd: appDir }).then(
        () => '',
        (error: { stdout?: string }) => error.stdout ?? String(error),
      );
      expect({ tsc, compiled }).toEqual({ tsc, compiled: '' });
    }
  }, 120_000);
});
