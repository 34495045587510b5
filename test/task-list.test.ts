import { describe, expect, it } from 'vitest';
import { createImageTask, makeApp, STRICT, seedImageTasks } from './helpers.js';

describe('GET /v1/tasks', () => {
  it('GET /v1/tasks answers {docs,total,limit,offset,has_more,next_token}, newest first', async () => {
    const t = makeApp();
    const ids = await seedImageTasks(t, 3);
    const res = await t.call('GET', '/v1/tasks');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 3, limit: 100, offset: 0, has_more: false, next_token: null });
    expect(res.body.docs.map((d: { task_id: string }) => d.task_id)).toEqual([...ids].reverse());
  });

  it('GET /v1/tasks keeps paging stable when tasks are created between pages', async () => {
    const t = makeApp();
    const ids = await seedImageTasks(t, 4);
    const first = await t.call('GET', '/v1/tasks?limit=2');
    await createImageTask(t);
    const second = await t.call('GET', `/v1/tasks?limit=2&next_token=${first.body.next_token}`);
    expect(second.body.docs.map((d: { task_id: string }) => d.task_id)).toEqual([ids[1], ids[0]]);
  });

  it('GET /v1/tasks filters by status with comma lists and repeated keys', async () => {
    const t = makeApp();
    const [a, b, c] = await seedImageTasks(t, 3);
    await t.call('POST', `/_mock/tasks/${a}/complete`);
    await t.call('POST', `/v1/task/${b}/cancel`);
    const completed = await t.call('GET', '/v1/tasks?status=completed');
    expect(completed.body.docs.map((d: { task_id: string }) => d.task_id)).toEqual([a]);
    const either = await t.call('GET', '/v1/tasks?status=completed,canceled');
    expect(either.body.total).toBe(2);
    const repeated = await t.call('GET', '/v1/tasks?status=pending&status=canceled');
    expect(repeated.body.docs.map((d: { task_id: string }) => d.task_id)).toEqual([c, b]);
    // axios and qs send a list as key[]: the same filter, mixed with the plain key too.
    const brackets = await t.call('GET', '/v1/tasks?status[]=pending&status%5B%5D=canceled');
    expect(brackets.body.docs.map((d: { task_id: string }) => d.task_id)).toEqual([c, b]);
    const mixed = await t.call('GET', '/v1/tasks?status=completed&status[]=canceled');
    expect(mixed.body.total).toBe(2);
  });

  it('GET /v1/tasks?type= of a type the mock does not know is a 400 naming type (a typo lists nothing)', async () => {
    const t = makeApp();
    const res = await t.call('GET', '/v1/tasks?type=imageanotation');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/"type".*imageanotation/);
  });

  it('GET /v1/tasks filters by unique_id (repeated), tags, type and customer_review_status', async () => {
    const t = makeApp();
    const ids = await seedImageTasks(t, 4, (i) => ({ unique_id: `u-${i}`, tags: i % 2 ? ['odd'] : ['even', 'x'] }));
    const byUid = await t.call('GET', '/v1/tasks?unique_id=u-0&unique_id=u-2');
    expect(byUid.body.docs.map((d: { task_id: string }) => d.task_id)).toEqual([ids[2], ids[0]]);
    const byTag = await t.call('GET', '/v1/tasks?tags=odd');
    expect(byTag.body.total).toBe(2);
    const anyTag = await t.call('GET', '/v1/tasks?tags=odd&tags=x');
    expect(anyTag.body.total).toBe(4);
    const byType = await t.call('GET', '/v1/tasks?type=imageannotation&tags=even');
    expect(byType.body.total).toBe(2);
    await t.call('POST', `/_mock/tasks/${ids[3]}/complete`);
    await t.call('POST', `/v1/task/${ids[3]}/audit`, { body: { accepted: true } });
    const review = await t.call('GET', '/v1/tasks?customer_review_status=accepted,rejected');
    expect(review.body.docs.map((d: { task_id: string }) => d.task_id)).toEqual([ids[3]]);
    // Every task carries a review status from creation: the unreviewed ones are pending.
    const unreviewed = await t.call('GET', '/v1/tasks?customer_review_status=pending');
    expect(unreviewed.body.docs.map((d: { task_id: string }) => d.task_id)).toEqual([ids[2], ids[1], ids[0]]);
  });

  it('GET /v1/tasks keeps totals of combined filters exact as tasks change', async () => {
    const t = makeApp();
    await seedImageTasks(t, 3, () => ({ tags: ['a'] }));
    const query = '/v1/tasks?status=pending&tags=a&limit=1';
    expect((await t.call('GET', query)).body.total).toBe(3);
    const [doc] = (await t.call('GET', query)).body.docs;
    await t.call('POST', `/v1/task/${doc.task_id}/cancel`);
    expect((await t.call('GET', query)).body.total).toBe(2);
    await createImageTask(t, { tags: ['a'] });
    expect((await t.call('GET', query)).body.total).toBe(3);
  });

  it('GET /v1/tasks counts combined filters exactly on every counting path', async () => {
    const t = makeApp();
    const ids = await seedImageTasks(t, 6, (i) => ({ tags: i % 2 ? ['odd'] : ['even'], unique_id: `c-${i}` }));
    await t.call('POST', `/_mock/tasks/${ids[1]}/complete`);
    await t.call('POST', `/_mock/tasks/${ids[2]}/complete`);
    await t.call('POST', `/v1/task/${ids[3]}/cancel`);
    const total = async (query: string) => (await t.call('GET', `/v1/tasks?${query}&limit=1`)).body.total;
    expect(await total('status=completed&tags=odd')).toBe(1); // sorted-list intersection
    expect(await total('status=completed,canceled&tags=odd')).toBe(2); // several values of the larger filter
    expect(await total('status=completed&completed_after=2026-01-01')).toBe(2); // with a time check
    expect(await total('unique_id=c-1&unique_id=c-2&unique_id=c-3&status=completed')).toBe(2);
    expect(await total('tags=odd&tags=even&status=pending')).toBe(3); // several tags: a merged walk
  });

  it('GET /v1/tasks filters created_at by start_time and end_time as dates or datetimes', async () => {
    const t = makeApp();
    const ids = await seedImageTasks(t, 3); // created at 00:00:00, 00:00:01, 00:00:02 on 2026-01-01
    const from = await t.call('GET', '/v1/tasks?start_time=2026-01-01T00:00:01Z');
    expect(from.body.docs.map((d: { task_id: string }) => d.task_id)).toEqual([ids[2], ids[1]]);
    const until = await t.call('GET', '/v1/tasks?end_time=2026-01-01T01:00:01%2B01:00');
    expect(until.body.docs.map((d: { task_id: string }) => d.task_id)).toEqual([ids[1], ids[0]]);
    const day = await t.call('GET', '/v1/tasks?start_time=2026-01-01&end_time=2026-01-02');
    expect(day.body.total).toBe(3);
    // The Python client documents 'YYYY-MM-DD HH:MM:SS.mmmmmm' (UTC, space separator, microseconds).
    const python = await t.call('GET', `/v1/tasks?start_time=${encodeURIComponent('2026-01-01 00:00:00.500000')}`);
    expect(python.body.docs.map((d: { task_id: string }) => d.task_id)).toEqual([ids[2], ids[1]]);
    const none = await t.call('GET', '/v1/tasks?start_time=2026-01-02');
    expect(none.body).toMatchObject({ total: 0, docs: [] });
  });

  it('GET /v1/tasks filters by completed and updated bounds', async () => {
    const t = makeApp();
    const [a, b] = await seedImageTasks(t, 2);
    t.clock.advance(60_000);
    await t.call('POST', `/_mock/tasks/${a}/complete`);
    const after = await t.call('GET', '/v1/tasks?completed_after=2026-01-01T00:01:00Z');
    expect(after.body.docs.map((d: { task_id: string }) => d.task_id)).toEqual([a]);
    expect(after.body.total).toBe(1);
    const before = await t.call('GET', '/v1/tasks?updated_before=2026-01-01T00:00:30Z');
    expect(before.body.docs.map((d: { task_id: string }) => d.task_id)).toEqual([b]);
  });

  const badQueries: [string, RegExp][] = [
    ['limit=0', /"limit" must be at least 1/],
    ['limit=101', /"limit" must be at most 100/],
    ['limit=ten', /"limit" must be an integer/],
    ['status=done', /"status" must be one of pending, completed, canceled, error \(got "done"\)/],
    ['start_time=yesterday', /"start_time" must be an ISO 8601 date or datetime/],
    ['next_token=garbage', /"next_token" is not a token returned by this server/],
    ['limited_response=maybe', /"limited_response" must be one of true, false, True, False, TRUE, FALSE, 1, 0/],
  ];
  for (const [query, message] of badQueries) {
    it(`GET /v1/tasks?${query} is a 400 that names the parameter`, async () => {
      const t = makeApp();
      const res = await t.call('GET', `/v1/tasks?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(message);
    });
  }

  it('GET /v1/tasks refuses query keys it does not know, naming them (unknown_params strict)', async () => {
    const t = makeApp(STRICT);
    const res = await t.call('GET', '/v1/tasks?project_id=x&foo=bar');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status_code: 400,
      error:
        'Parameter is invalid, reason: "project_id" is not an allowed parameter; "foo" is not an allowed parameter',
    });
  });
});
