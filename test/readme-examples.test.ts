import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { serve } from '@hono/node-server';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { basic, present } from './helpers.js';

/**
 * The README's examples run as they are written: its in-process Node quick start, and each command
 * of its control-plane cheat sheet with curl against a live server (the base URL and TASK_ID filled
 * in, as a reader would). A changed route, body or flag that the README still shows fails here.
 */

const run = promisify(execFile);
const ROOT = new URL('..', import.meta.url).pathname;
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const scratch = mkdtempSync(join(tmpdir(), 'labelmock-readme-'));
const app = createApp();
let server: ReturnType<typeof serve> | undefined;
afterAll(() => {
  server?.close();
  app.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

/** The README's fenced blocks of one language, in order. */
function blocks(language: string): string[] {
  return [...README.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\``, 'gm'))].map((m) => m[1] ?? '');
}

async function liveBase(): Promise<string> {
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => resolve(info.port));
  });
  return `http://127.0.0.1:${port}`;
}

const KEY = 'test_demo';
const auth = {
  Authorization: basic(KEY),
  'content-type': 'application/json',
};

/** A task in the state a cheat-sheet line needs: redo and audit act on a completed task, the rest on a pending one. */
async function taskFor(base: string, line: string): Promise<string> {
  const body = { attachment: 'https://example.com/a.jpg', geometries: { box: { objects_to_annotate: ['car'] } } };
  const res = await fetch(`${base}/v1/task/imageannotation`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify(body),
  });
  const { task_id } = (await res.json()) as { task_id: string };
  if (/\/(redo|audit)\b/.test(line))
    await fetch(`${base}/_mock/tasks/${task_id}/complete`, { method: 'POST', headers: auth });
  return task_id;
}

describe('README examples', () => {
  it('the in-process quick start runs as written and prints the empty task list', async () => {
    const example = present(
      blocks('ts').find((block) => block.includes('createApp')),
      'the ts block with createApp',
    );
    // As the package resolves 'labelmock' to its entry point; here, its source.
    const file = join(scratch, 'quick-start.mts');
    writeFileSync(file, example.replace("from 'labelmock'", `from '${join(ROOT, 'src/index.ts')}'`));
    const { stdout } = await run(join(ROOT, 'node_modules/.bin/tsx'), [file], { cwd: scratch });
    expect(stdout).toMatch(/^200 \{[\s\S]*docs: \[\][\s\S]*\}\n$/);
  }, 60_000);

  it('each command of the control-plane cheat sheet answers 200 (curl, with the base URL and a task id)', async () => {
    const sheet = present(
      blocks('sh').find((block) => block.includes('/_mock/tasks/TASK_ID/complete')),
      'the sh block of control-plane commands',
    );
    const base = await liveBase();
    // Each line's continuation (a trailing backslash) belongs to it.
    const lines = sheet.replace(/\\\n\s*/g, '').split('\n');
    const prelude = present(lines[0], 'the first line (K= and B=)').replace('http://127.0.0.1:3000', base);
    const commands = lines.filter((line) => line.startsWith('curl'));
    expect(commands.length).toBeGreaterThan(10);
    for (const line of commands) {
      const command = line.replace(/TASK_ID/g, await taskFor(base, line));
      const shell = (text: string) => run('bash', ['-c', `${prelude}\n${text}`], { cwd: scratch });
      if (command.includes('> seed.json')) {
        // An export into a file: the file is the state, JSON (the next line imports it).
        await shell(command);
        expect(() => JSON.parse(readFileSync(join(scratch, 'seed.json'), 'utf8')), command).not.toThrow();
        continue;
      }
      // The answer's status on a last line of its own, after what the command prints.
      const { stdout } = await shell(command.replace(/^curl /, "curl -w '\\n%{http_code}' "));
      expect(stdout.trim().split('\n').at(-1), command).toBe('200');
    }
  }, 120_000);
});
