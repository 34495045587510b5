import { describe, expect, it } from 'vitest';
import { viewTask } from '../src/services/tasks.js';
import { basic, createImageTask, KEY, makeApp, type TestApp } from './helpers.js';

const stored = (t: TestApp, taskId: string) => {
  const record = t.app.services.store.tenant(KEY.slice('test_'.length), 'test').tasks.get(taskId);
  if (!record) throw new Error(`no task ${taskId}`);
  return record;
};

/** The task as GET answers it, its text, and the same task in the newest-first list. */
async function readBoth(t: TestApp, taskId: string) {
  const res = await t.app.request(`/v1/task/${taskId}`, { headers: { authorization: basicKey } });
  const text = await res.text();
  const list = (await t.call('GET', '/v1/tasks?limit=100')).body;
  return { text, task: JSON.parse(text), listed: list.docs.find((d: { task_id: string }) => d.task_id === taskId) };
}
const basicKey = basic(KEY);

describe('task revisions', () => {
  it('a task handed out is frozen: changing it throws and the store keeps its value', async () => {
    const t = makeApp();
    const { task_id } = await createImageTask(t, { metadata: { n: 1 }, tags: ['a'] });
    const task = viewTask(stored(t, task_id));
    expect(() => {
      task.status = 'completed';
    }).toThrow(TypeError);
    expect(() => {
      (task.metadata as Record<string, unknown>).n = 2;
    }).toThrow(TypeError);
    expect(() => task.tags?.push('b')).toThrow(TypeError);
    expect(() => {
      (task.params as Record<string, unknown>).attachment = 'https://example.com/other.jpg';
    }).toThrow(TypeError);
    const read = (await t.call('GET', `/v1/task/${task_id}`)).body;
    expect(read).toMatchObject({ status: 'pending', metadata: { n: 1 }, tags: ['a'] });
    expect(read.params.attachment).not.toBe('https://example.com/other.jpg');
  });

  it('a task handed out before a change keeps the values it had', async () => {
    const t = makeApp();
    const { task_id } = await createImageTask(t, { metadata: { n: 1 } });
    const before = viewTask(stored(t, task_id));
    await t.call('POST', `/v1/task/${task_id}/setMetadata`, { body: { n: 2 } });
    expect(before.metadata).toEqual({ n: 1 });
    expect(viewTask(stored(t, task_id)).metadata).toEqual({ n: 2 });
  });

  it('GET /v1/task/{id} and GET /v1/tasks answer every kind of change after the task was read', async () => {
    const t = makeApp();
    const { task_id } = await createImageTask(t);
    const changes: [string, string, unknown, (task: Record<string, any>) => void][] = [
      ['POST', `/v1/task/${task_id}/setMetadata`, { k: 'v' }, (task) => expect(task.metadata).toEqual({ k: 'v' })],
      ['POST', `/v1/task/${task_id}/tags`, ['x', 'y'], (task) => expect(task.tags).toEqual(['x', 'y'])],
      ['PUT', `/v1/task/${task_id}/tags`, ['z'], (task) => expect(task.tags).toEqual(['x', 'y', 'z'])],
      ['DELETE', `/v1/task/${task_id}/tags`, ['x'], (task) => expect(task.tags).toEqual(['y', 'z'])],
      ['POST', `/v1/task/${task_id}/unique_id`, { unique_id: 'u-1' }, (task) => expect(task.unique_id).toBe('u-1')],
      ['DELETE', `/v1/task/${task_id}/unique_id`, undefined, (task) => expect(task.unique_id).toBeUndefined()],
      [
        'POST',
        `/v1/task/${task_id}/dependents/options`,
        {
          defs: [
            {
              type: 'imageannotation',
              attachment: 'https://example.com/d.jpg',
              geometries: { box: { objects_to_annotate: ['car'] } },
            },
          ],
        },
        (task) => expect(task.dependents).toEqual([]),
      ],
      [
        'POST',
        `/_mock/tasks/${task_id}/complete`,
        undefined,
        (task) => expect([task.status, task.dependents.length]).toEqual(['completed', 1]),
      ],
      [
        'POST',
        `/v1/task/${task_id}/audit`,
        { accepted: false, comments: 'redo it' },
        (task) => expect([task.customer_review_status, task.audits.length]).toEqual(['rejected', 1]),
      ],
      ['POST', `/_mock/tasks/${task_id}/redo`, undefined, (task) => expect(task.times_redone).toBe(1)],
      ['POST', `/_mock/tasks/${task_id}/fail`, { error: 'broken' }, (task) => expect(task.error).toBe('broken')],
    ];
    for (const [method, path, body, check] of changes) {
      await readBoth(t, task_id); // the current revision's text is now kept
      const res = await t.call(method, path, { body });
      expect(res.status, `${method} ${path}`).toBe(200);
      const { task, listed } = await readBoth(t, task_id);
      check(task);
      check(listed);
      expect(listed).toEqual(task);
      expect(res.body).toEqual(task);
    }
  });

  it('POST /v1/task/{id}/cancel is answered by the next read of a task read before', async () => {
    const t = makeApp();
    const { task_id } = await createImageTask(t);
    expect((await readBoth(t, task_id)).task.status).toBe('pending');
    await t.call('POST', `/v1/task/${task_id}/cancel`);
    const { task, listed } = await readBoth(t, task_id);
    expect([task.status, listed.status]).toEqual(['canceled', 'canceled']);
  });

  it('GET /v1/tasks answers the bytes JSON.stringify gives its page, limited_response included', async () => {
    const t = makeApp();
    // Multi-byte text: the page's buffer is sized in bytes, not characters.
    for (let i = 0; i < 3; i += 1) await createImageTask(t, { metadata: { i, note: 'çà ✓ 😀' }, tags: ['t'] });
    for (const query of ['limit=2', 'limit=2&tags=t', 'limited_response=true', 'status=completed']) {
      const res = await t.app.request(`/v1/tasks?${query}`, { headers: { authorization: basicKey } });
      const text = await res.text();
      expect(text).toBe(JSON.stringify(JSON.parse(text)));
    }
  });
});
