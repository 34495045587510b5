import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_LIFE_ENTRIES, TaskTimelineSchema } from '../src/domain/control/timeline.js';
import { imageRequest, makeApp } from './helpers.js';

/** labelmock's bounds on a task's timeline, and what an import keeps of it (contracts/suite/task-timeline.ts). */

type Entry = { kind: string; time: string };
/** The task's own changes: callbacks and requests left aside. */
const changesOf = (entries: Entry[]) =>
  entries.filter((entry) => !entry.kind.startsWith('callback') && entry.kind !== 'request');

describe('task timeline', () => {
  it("keeps the order things happened within one millisecond: a creation's answer, then the next change", async () => {
    // The clock stands still here: every entry shares one millisecond, as fast requests in process do.
    const t = makeApp();
    await t.call('PATCH', '/_mock/settings', { body: { completion: { mode: 'manual' } } });
    const body = imageRequest({ callback_url: 'mailto:ops@example.com' });
    const { task_id } = (await t.call('POST', '/v1/task/imageannotation', { body })).body;
    expect((await t.call('POST', `/_mock/tasks/${task_id}/complete`)).status).toBe(200);
    expect((await t.call('GET', `/v1/task/${task_id}`)).status).toBe(200);
    expect((await t.call('POST', `/_mock/tasks/${task_id}/redo`)).status).toBe(200);
    const { entries } = (await t.call('GET', `/_mock/tasks/${task_id}/timeline`)).body;
    expect(new Set(entries.map((entry: Entry) => entry.time)).size).toBe(1);
    expect(entries.map((entry: Entry & { method?: string }) => entry.method ?? entry.kind)).toEqual([
      'created',
      'POST',
      'completed',
      'callback_queued',
      'GET',
      'redone',
      // A redo recalls the completion: its callback follows the change.
      'callback_queued',
    ]);
  });

  it('keeps the latest changes of a task redone again and again, and says how many went', async () => {
    const t = makeApp();
    await t.call('PATCH', '/_mock/settings', { body: { completion: { mode: 'manual' } } });
    const { task_id } = (await t.call('POST', '/v1/task/imageannotation', { body: imageRequest({}) })).body;
    const cycles = MAX_LIFE_ENTRIES;
    expect((await t.call('POST', `/_mock/tasks/${task_id}/complete`)).status).toBe(200);
    for (let i = 0; i < cycles; i += 1) {
      expect((await t.call('POST', `/_mock/tasks/${task_id}/redo`)).status).toBe(200);
      expect((await t.call('POST', `/_mock/tasks/${task_id}/complete`)).status).toBe(200);
    }
    const { body } = await t.call('GET', `/_mock/tasks/${task_id}/timeline`);
    const changes = body.entries.filter((entry: Entry) => entry.kind === 'completed' || entry.kind === 'redone');
    expect(changes).toHaveLength(MAX_LIFE_ENTRIES);
    expect(body.left_out).toBe(1 + 2 * cycles - MAX_LIFE_ENTRIES);
    // The latest kept: alternating, ending with the last completion.
    expect(changes.at(-1).kind).toBe('completed');
    expect(changes.at(-2).kind).toBe('redone');
    expect(body.entries[0].kind).toBe('created');
  });

  it('an imported task starts from what its fields tell, marked rebuilt; its next changes follow', async () => {
    const t = makeApp();
    await t.call('PATCH', '/_mock/settings', { body: { completion: { mode: 'manual' } } });
    const { task_id } = (await t.call('POST', '/v1/task/imageannotation', { body: imageRequest({}) })).body;
    await t.call('POST', `/_mock/tasks/${task_id}/complete`);
    await t.call('POST', `/_mock/tasks/${task_id}/redo`);
    const done = (await t.call('POST', `/_mock/tasks/${task_id}/complete`)).body;
    const state = (await t.call('GET', '/_mock/state')).body;
    expect((await t.call('PUT', '/_mock/state', { key: 'test_copy', body: state })).status).toBe(200);

    const copy = await t.call('GET', `/_mock/tasks/${task_id}/timeline`, { key: 'test_copy' });
    expect(copy.body.rebuilt).toBe(true);
    expect(changesOf(copy.body.entries).map((entry: Entry) => [entry.kind, entry.time])).toEqual([
      ['created', done.created_at],
      ['completed', done.completed_at],
    ]);
    await t.call('POST', `/_mock/tasks/${task_id}/redo`, { key: 'test_copy' });
    const redone = await t.call('GET', `/_mock/tasks/${task_id}/timeline`, { key: 'test_copy' });
    expect(changesOf(redone.body.entries).map((entry: Entry) => entry.kind)).toEqual([
      'created',
      'completed',
      'redone',
    ]);
    // The original keeps its whole history.
    const original = await t.call('GET', `/_mock/tasks/${task_id}/timeline`);
    expect(original.body.rebuilt).toBe(false);
    expect(changesOf(original.body.entries).map((entry) => entry.kind)).toEqual([
      'created',
      'completed',
      'redone',
      'completed',
    ]);
  });

  it("docs/control-plane.md's timeline is one the schema admits, in the order the timeline keeps", () => {
    const docs = readFileSync(new URL('../docs/control-plane.md', import.meta.url), 'utf8');
    const section = docs.slice(docs.indexOf("## A task's timeline"));
    const example = JSON.parse(/```json\n([\s\S]*?)```/.exec(section)?.[1] ?? 'null');
    const timeline = TaskTimelineSchema.parse(example);
    const times = timeline.entries.map((entry) => entry.time);
    expect(times).toEqual([...times].sort());
  });
});
