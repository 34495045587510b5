import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startCli } from './cli-process.js';
import { basic, imageRequest } from './helpers.js';
import { startReceiver, waitFor } from './receiver.js';

/**
 * The real server with --data-dir, killed with SIGKILL in the middle of concurrent creates: every
 * task it acknowledged is there after a restart, and work it scheduled still happens.
 */

const KEY = 'test_crash';
const children: ChildProcess[] = [];
const dirs: string[] = [];
const receivers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const receiver of receivers.splice(0)) await receiver.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Running {
  base: string;
  child: ChildProcess;
  output: () => string;
}

async function start(dir: string): Promise<Running> {
  const cli = startCli(['--port', '0', '--data-dir', dir], { LABELMOCK_LOG: 'off' });
  children.push(cli.child);
  return { base: await cli.base, child: cli.child, output: () => cli.out() + cli.err() };
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

const call = (base: string, method: string, path: string, body?: unknown) =>
  fetch(`${base}${path}`, {
    method,
    headers: { authorization: basic(KEY), 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'labelmock-crash-'));
  dirs.push(dir);
  return dir;
}

describe('--data-dir on the real server', () => {
  it('kill -9 during concurrent creates: every acknowledged task is there after the restart', async () => {
    const dir = folder();
    const first = await start(dir);
    const acknowledged: string[] = [];
    let killed = false;
    // Eight clients creating one task after another until the server dies under them.
    const client = async () => {
      for (;;) {
        try {
          const res = await call(first.base, 'POST', '/v1/task/imageannotation', imageRequest());
          if (res.status !== 200) throw new Error(`create answered ${res.status}`);
          acknowledged.push(((await res.json()) as { task_id: string }).task_id);
        } catch (err) {
          if (killed) return;
          throw err;
        }
        if (acknowledged.length >= 150 && !killed) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, client));
    await exited(first.child);
    expect(acknowledged.length).toBeGreaterThanOrEqual(150);

    const second = await start(dir);
    expect(second.output()).toMatch(/state: .* \(\d+ task\(s\) of 1 tenant\(s\)/);
    const missing: string[] = [];
    for (const id of acknowledged) {
      if ((await call(second.base, 'GET', `/v1/task/${id}`)).status !== 200) missing.push(id);
    }
    expect(missing).toEqual([]);
  }, 60_000);

  it('a delayed completion and a callback retry scheduled before kill -9 happen after the restart', async () => {
    const dir = folder();
    const receiver = await startReceiver((n) => (n === 0 ? 500 : 200));
    receivers.push(receiver);
    const first = await start(dir);
    // Two attempts, the retry about 2.6 s after the first (a day times retry_scale).
    const callbacks = { max_attempts: 2, retry_scale: 0.00003 };
    expect((await call(first.base, 'PATCH', '/_mock/settings', { callbacks })).status).toBe(200);
    const hook = imageRequest({ callback_url: receiver.url });
    const hooked = (await (await call(first.base, 'POST', '/v1/task/imageannotation', hook)).json()) as {
      task_id: string;
    };
    expect((await call(first.base, 'POST', `/_mock/tasks/${hooked.task_id}/complete`, {})).status).toBe(200);
    await waitFor(() => expect(receiver.received).toHaveLength(1));
    const delayed = { completion: { mode: 'delay', delay_ms: 1500 } };
    expect((await call(first.base, 'PATCH', '/_mock/settings', delayed)).status).toBe(200);
    const created = await call(first.base, 'POST', '/v1/task/imageannotation', imageRequest());
    const { task_id } = (await created.json()) as { task_id: string };
    first.child.kill('SIGKILL');
    await exited(first.child);

    const second = await start(dir);
    await waitFor(() => expect(receiver.received).toHaveLength(2), 15_000);
    expect(receiver.received[1]?.body).toMatchObject({ task_id: hooked.task_id, status: 'completed' });
    await expect
      .poll(
        async () =>
          ((await (await call(second.base, 'GET', `/v1/task/${task_id}`)).json()) as { status: string }).status,
        {
          timeout: 15_000,
          interval: 200,
        },
      )
      .toBe('completed');
  }, 60_000);

  it('a second server on the same folder refuses to start; SIGTERM unlocks it', async () => {
    const dir = folder();
    const first = await start(dir);
    await expect(start(dir)).rejects.toThrow(/is in use by another labelmock \(pid \d+\)/);
    first.child.kill('SIGTERM');
    expect(await exited(first.child)).toBe(0);
    expect(existsSync(join(dir, 'lock'))).toBe(false);
    const second = await start(dir);
    expect((await call(second.base, 'GET', '/v1/tasks')).status).toBe(200);
  }, 60_000);
});
