import { describe, expect, it } from 'vitest';
import { basic, createImageTask, KEY, makeApp, readInPieces, type TestApp } from './helpers.js';

/** GET /_mock/callbacks with many large deliveries: paged, streamed, and no copy of a task per delivery. */

const ok = async () => new Response('ok', { status: 200 });

/**
 * A task with a large instruction completed, redone, completed again...: `rounds` steps, one delivery each (a
 * completion's callback, then a redo's recall).
 */
async function deliveries(t: TestApp, rounds: number, instruction: string): Promise<string> {
  const task = await createImageTask(t, { instruction, callback_url: 'https://app.example/hook' });
  for (let i = 0; i < rounds; i += 1) {
    const step = i % 2 === 0 ? 'complete' : 'redo';
    expect((await t.call('POST', `/_mock/tasks/${task.task_id}/${step}`)).status).toBe(200);
  }
  await expect
    .poll(
      async () =>
        (await t.call('GET', '/_mock/callbacks')).body.deliveries.filter((d: any) => d.state !== 'pending').length,
    )
    .toBe(rounds);
  return task.task_id;
}

describe('callback journal', () => {
  it('GET /_mock/callbacks pages with limit and after, oldest first', async () => {
    const t = makeApp({ fetch: ok });
    await deliveries(t, 5, 'short');
    const all = (await t.call('GET', '/_mock/callbacks')).body.deliveries.map((d: { id: string }) => d.id);
    expect(all).toHaveLength(5);
    const first = (await t.call('GET', '/_mock/callbacks?limit=2')).body.deliveries.map((d: { id: string }) => d.id);
    expect(first).toEqual(all.slice(0, 2));
    const next = await t.call('GET', `/_mock/callbacks?limit=2&after=${first[1]}`);
    expect(next.body.deliveries.map((d: { id: string }) => d.id)).toEqual(all.slice(2, 4));
    const unknown = await t.call('GET', '/_mock/callbacks?after=nope');
    expect([unknown.status, unknown.body.error]).toEqual([400, expect.stringContaining('"after" names no delivery')]);
    expect((await t.call('GET', '/_mock/callbacks?limit=0')).status).toBe(400);
  });

  it('GET /_mock/callbacks of large deliveries is written in pieces, another request answered between', async () => {
    const t = makeApp({ fetch: ok });
    const instruction = 'i'.repeat(200_000);
    await deliveries(t, 6, instruction);
    const res = await t.app.request('/_mock/callbacks', { headers: { authorization: basic(KEY) } });
    const other = async () => (await t.call('GET', '/v1/tasks', { key: 'test_other' })).status;
    const { text, pieces, answered } = await readInPieces(res, other);
    expect([pieces > 2, answered]).toEqual([true, 200]);
    const parsed = JSON.parse(text) as { deliveries: { body: { task: { instruction: string } } }[] };
    expect(parsed.deliveries.map((d) => d.body.task.instruction === instruction)).toEqual(Array(6).fill(true));
  });

  it('the revisions deliveries keep share their unchanged values with the task: no copy per delivery', async () => {
    const t = makeApp({ fetch: ok });
    const taskId = await deliveries(t, 3, 'x'.repeat(10_000));
    const tenant = t.app.services.store.findTenant('test:acme');
    const record = tenant?.tasks.get(taskId);
    const kept = tenant?.callbacks.map((d) => (d.body as { task: { params: unknown; metadata: unknown } }).task);
    expect(kept).toHaveLength(3);
    for (const revision of kept ?? []) {
      expect(revision.params).toBe(record?.task.params);
      expect(revision.metadata).toBe(record?.task.metadata);
    }
  });
});

describe('callbacks of a reset tenant', () => {
  it('a reset drops the deliveries its journal still had to send: none reaches the receiver afterwards', async () => {
    // The receiver holds every delivery until told: the tenant's callbacks queue behind the slots they fill.
    const sent: string[] = [];
    const releases: (() => void)[] = [];
    const held = async (_url: unknown, init?: RequestInit) => {
      sent.push(JSON.parse(String(init?.body)).task_id);
      await new Promise<void>((resolve) => releases.push(resolve));
      return new Response('ok', { status: 200 });
    };
    const t = makeApp({ fetch: held, config: { maxCallbacksInFlight: 4 } });
    const made: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const task = await createImageTask(t, { callback_url: 'https://app.example/hook' });
      expect((await t.call('POST', `/_mock/tasks/${task.task_id}/complete`)).status).toBe(200);
      made.push(task.task_id);
    }
    // One slot is the tenant's share (a quarter of 4): one delivery in flight, the other five waiting for it.
    await expect.poll(() => t.app.services.deliveries.queued).toBe(5);
    expect(sent).toEqual([made[0]]);
    expect((await t.call('POST', '/_mock/reset')).status).toBe(200);
    expect(t.app.services.deliveries.queued).toBe(0);
    // The one in flight finishes; none of the five that waited is sent after the reset.
    for (const release of releases.splice(0)) release();
    await expect.poll(() => t.app.services.deliveries.busy).toBe(0);
    expect(sent).toEqual([made[0]]);
  });
});
