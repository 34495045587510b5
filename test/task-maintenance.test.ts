import { describe, expect, it } from 'vitest';
import { createImageTask, makeApp } from './helpers.js';

describe('task maintenance routes', () => {
  it('GET /v1/task/{id} returns the task; an unknown id is the real 404 message', async () => {
    const t = makeApp();
    const task = await createImageTask(t);
    const res = await t.call('GET', `/v1/task/${task.task_id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(task);
    const missing = await t.call('GET', '/v1/task/5c84d0fe958593004f13e5ba');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ status_code: 404, error: 'Task with that ID not found.' });
  });

  it('POST /v1/task/{id}/cancel cancels a pending task, again is 200, a completed one is 400', async () => {
    const t = makeApp();
    const task = await createImageTask(t);
    t.clock.advance(5);
    const first = await t.call('POST', `/v1/task/${task.task_id}/cancel`);
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('canceled');
    expect(first.body.updated_at).toBe('2026-01-01T00:00:00.005Z');
    const again = await t.call('POST', `/v1/task/${task.task_id}/cancel`);
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('canceled');

    const other = await createImageTask(t);
    await t.call('POST', `/_mock/tasks/${other.task_id}/complete`);
    const late = await t.call('POST', `/v1/task/${other.task_id}/cancel`);
    expect(late.status).toBe(400);
    expect(late.body.error).toMatch(/is completed; only pending tasks can be canceled/);
  });

  it('POST /v1/task/{id}/cancel with no body and a JSON content type is not a 400', async () => {
    const t = makeApp();
    const task = await createImageTask(t);
    const res = await t.call('POST', `/v1/task/${task.task_id}/cancel`, { raw: '' });
    expect(res.status).toBe(200);
  });

  it('POST and DELETE /v1/task/{id}/unique_id set and remove it; a used one is a 409 naming the holder', async () => {
    const t = makeApp();
    const a = await createImageTask(t, { unique_id: 'taken' });
    const b = await createImageTask(t);
    const set = await t.call('POST', `/v1/task/${b.task_id}/unique_id`, { body: { unique_id: 'fresh' } });
    expect(set.status).toBe(200);
    expect(set.body.unique_id).toBe('fresh');
    const again = await t.call('POST', `/v1/task/${b.task_id}/unique_id`, { body: { unique_id: 'fresh' } });
    expect(again.status).toBe(200);
    const clash = await t.call('POST', `/v1/task/${b.task_id}/unique_id`, { body: { unique_id: 'taken' } });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toContain(a.task_id);
    const removed = await t.call('DELETE', `/v1/task/${b.task_id}/unique_id`);
    expect(removed.status).toBe(200);
    expect(removed.body).not.toHaveProperty('unique_id');
    const missing = await t.call('POST', `/v1/task/${b.task_id}/unique_id`, { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/"unique_id" is required/);
  });

  it('/v1/task/{id}/tags: POST replaces, PUT adds, DELETE removes, order kept', async () => {
    const t = makeApp();
    const task = await createImageTask(t, { tags: ['a'] });
    const path = `/v1/task/${task.task_id}/tags`;
    expect((await t.call('POST', path, { body: ['x', 'y'] })).body.tags).toEqual(['x', 'y']);
    expect((await t.call('PUT', path, { body: ['y', 'z'] })).body.tags).toEqual(['x', 'y', 'z']);
    expect((await t.call('DELETE', path, { body: ['x', 'absent'] })).body.tags).toEqual(['y', 'z']);
    const listed = await t.call('GET', '/v1/tasks?tags=z');
    expect(listed.body.total).toBe(1);
    const gone = await t.call('GET', '/v1/tasks?tags=x');
    expect(gone.body.total).toBe(0);
  });

  it('/v1/task/{id}/tags rejects a sixth tag, empty strings, null and a non-array body', async () => {
    const t = makeApp();
    const task = await createImageTask(t, { tags: ['a', 'b', 'c', 'd', 'e'] });
    const path = `/v1/task/${task.task_id}/tags`;
    const sixth = await t.call('PUT', path, { body: ['f'] });
    expect(sixth.status).toBe(400);
    expect(sixth.body.error).toMatch(/at most 5/);
    expect((await t.call('POST', path, { body: [''] })).status).toBe(400);
    expect((await t.call('POST', path, { body: [null] })).body.error).toMatch(/"body\[0\]" must be a string/);
    expect((await t.call('POST', path, { body: { tags: ['a'] } })).body.error).toMatch(/"body" must be an array/);
    expect((await t.call('GET', `/v1/task/${task.task_id}`)).body.tags).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('every task route answers 404 for an unknown id', async () => {
    const t = makeApp();
    const id = 'ffffffffffffffffffffffff';
    const calls: [string, string, unknown?][] = [
      ['POST', `/v1/task/${id}/cancel`],
      ['POST', `/v1/task/${id}/setMetadata`, {}],
      ['POST', `/v1/task/${id}/unique_id`, { unique_id: 'x' }],
      ['DELETE', `/v1/task/${id}/unique_id`],
      ['POST', `/v1/task/${id}/tags`, ['a']],
      ['POST', `/_mock/tasks/${id}/complete`],
    ];
    for (const [method, path, body] of calls) {
      const res = await t.call(method, path, { body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
  });
});
