import { describe, expect, it } from 'vitest';
import { makeApp, seedImageTasks } from './helpers.js';

/** Offset paging (the Node SDK's way) and the time-range filters served from their indexes. */

const idsOf = (body: { docs: { task_id: string }[] }) => body.docs.map((d) => d.task_id);

describe('page tokens are bound to the filters that made them', () => {
  it('GET /v1/tasks refuses a next_token handed back with other filters; the same in any order page on', async () => {
    const t = makeApp();
    await seedImageTasks(t, 5);
    const first = await t.call('GET', '/v1/tasks?status=pending&limit=2');
    const token = encodeURIComponent(first.body.next_token);
    const other = await t.call('GET', `/v1/tasks?status=completed&limit=2&next_token=${token}`);
    expect(other.status).toBe(400);
    expect(other.body.error).toMatch(/"next_token" was made for a page with other filters/);
    // The page's size and the answer's form are no filters; the same filters in another order are the same.
    const same = await t.call('GET', `/v1/tasks?limit=3&limited_response=true&status=pending&next_token=${token}`);
    expect(same.status).toBe(200);
    expect(same.body.docs).toHaveLength(3);
  });

  it('GET /v2/tasks refuses a token of the same list made for other filters', async () => {
    const t = makeApp();
    await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name: 'p' } });
    await seedImageTasks(t, 3, () => ({ project: 'p' }));
    const page = await t.call('GET', '/v2/tasks?project_name=p&limit=1');
    const token = encodeURIComponent(page.body.next_token);
    const refused = await t.call('GET', `/v2/tasks?project_name=p&status=completed&limit=1&next_token=${token}`);
    expect(refused.status).toBe(400);
    expect((await t.call('GET', `/v2/tasks?project_name=p&limit=1&next_token=${token}`)).status).toBe(200);
  });
});

describe('GET /v1/tasks offset and time ranges', () => {
  it('GET /v1/tasks?offset= skips that many of the newest-first results and echoes it', async () => {
    const t = makeApp();
    const newest = (await seedImageTasks(t, 7)).reverse();
    const res = await t.call('GET', '/v1/tasks?limit=2&offset=2');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 7, limit: 2, offset: 2, has_more: true });
    expect(idsOf(res.body)).toEqual(newest.slice(2, 4));
    const seen: string[] = [];
    for (let offset = 0; offset < 7; offset += 3)
      seen.push(...idsOf((await t.call('GET', `/v1/tasks?limit=3&offset=${offset}`)).body));
    expect(seen).toEqual(newest);
  });

  it('GET /v1/tasks?offset= past the end answers an empty last page', async () => {
    const t = makeApp();
    await seedImageTasks(t, 3);
    const res = await t.call('GET', '/v1/tasks?offset=3');
    expect(res.body).toMatchObject({ docs: [], total: 3, offset: 3, has_more: false, next_token: null });
  });

  it('GET /v1/tasks?offset= skips only tasks that match every filter', async () => {
    const t = makeApp();
    const ids = await seedImageTasks(t, 8, (i) => ({ tags: i % 2 ? ['odd'] : ['even'] }));
    await t.call('POST', `/v1/task/${ids[7]}/cancel`);
    // status and tags together: the walk checks each task, and the offset counts matches only.
    const res = await t.call('GET', '/v1/tasks?status=pending&tags=odd&offset=1&limit=2');
    expect(res.body).toMatchObject({ total: 3, offset: 1, has_more: false });
    expect(idsOf(res.body)).toEqual([ids[3], ids[1]]);
    const byTag = await t.call('GET', '/v1/tasks?tags=even&offset=3');
    expect(idsOf(byTag.body)).toEqual([ids[0]]);
  });

  it('GET /v1/tasks continues an offset page with its next_token, which carries the position on', async () => {
    const t = makeApp();
    const newest = (await seedImageTasks(t, 5)).reverse();
    const first = await t.call('GET', '/v1/tasks?limit=2&offset=1');
    const next = await t.call('GET', `/v1/tasks?limit=2&next_token=${first.body.next_token}`);
    expect(next.body).toMatchObject({ offset: 3, has_more: false });
    expect(idsOf(next.body)).toEqual(newest.slice(3, 5));
  });

  it('GET /v1/tasks refuses offset together with next_token, and a negative or non-integer offset', async () => {
    const t = makeApp();
    await seedImageTasks(t, 3);
    const first = await t.call('GET', '/v1/tasks?limit=1');
    const both = await t.call('GET', `/v1/tasks?limit=1&offset=0&next_token=${first.body.next_token}`);
    expect(both.status).toBe(400);
    expect(both.body.error).toMatch(/"offset" cannot be combined with "next_token"/);
    expect((await t.call('GET', '/v1/tasks?offset=-1')).body).toEqual({
      status_code: 400,
      error: 'Parameter is invalid, reason: "offset" must be at least 0',
    });
    expect((await t.call('GET', '/v1/tasks?offset=two')).body.error).toMatch(/"offset" must be an integer/);
  });

  it("a token names its list: one list's token handed to another is a 400 naming both, never a page", async () => {
    const t = makeApp();
    await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name: 'shelves' } });
    await seedImageTasks(t, 3, () => ({ project: 'shelves' }));
    const v1 = (await t.call('GET', '/v1/tasks?limit=1')).body.next_token;
    const v2 = (await t.call('GET', '/v2/tasks?project_name=shelves&limit=1')).body.next_token;
    expect(typeof v1).toBe('string');
    expect(typeof v2).toBe('string');
    // Each token pages its own list...
    expect((await t.call('GET', `/v2/tasks?project_name=shelves&limit=1&next_token=${v2}`)).status).toBe(200);
    // ...and nothing else: a v1 task token on v2 and on the quality list, a v2 one on v1.
    for (const [path, list] of [
      [`/v2/tasks?project_name=shelves&next_token=${v1}`, 'v2_tasks'],
      [`/v1/quality/labelers?labeler_emails=a@example.com&next_token=${v1}`, 'training_attempts'],
    ] as const) {
      const res = await t.call('GET', path);
      expect(res.body).toEqual({
        status_code: 400,
        error: `Parameter is invalid, reason: "next_token" is a token of another list (tasks), not of this one (${
          list
        })`,
      });
    }
    expect((await t.call('GET', `/v1/tasks?next_token=${v2}`)).body.error).toBe(
      'Parameter is invalid, reason: "next_token" is a token of another list (v2_tasks), not of this one (tasks)',
    );
  });

  it('GET /v1/tasks?updated_after= follows updates: a changed task moves into the range', async () => {
    const t = makeApp();
    const ids = await seedImageTasks(t, 4);
    const cutoff = new Date(t.clock.now()).toISOString();
    t.clock.advance(1000);
    expect((await t.call('GET', `/v1/tasks?updated_after=${cutoff}`)).body.total).toBe(0);
    await t.call('POST', `/v1/task/${ids[1]}/setMetadata`, { body: { touched: true } });
    await t.call('POST', `/v1/task/${ids[3]}/cancel`);
    const res = await t.call('GET', `/v1/tasks?updated_after=${cutoff}`);
    expect(res.body.total).toBe(2);
    expect(idsOf(res.body)).toEqual([ids[3], ids[1]]);
    const before = await t.call('GET', `/v1/tasks?updated_before=${cutoff}&limit=1&offset=1`);
    expect(before.body).toMatchObject({ total: 2, has_more: false });
    expect(idsOf(before.body)).toEqual([ids[0]]);
  });

  it('GET /v1/tasks?completed_after=&completed_before= combine with other filters and created_at bounds', async () => {
    const t = makeApp();
    const ids = await seedImageTasks(t, 6, (i) => ({ tags: i < 3 ? ['early'] : ['late'] }));
    const start = new Date(t.clock.now()).toISOString();
    for (const id of [ids[0], ids[2], ids[4]]) {
      await t.call('POST', `/_mock/tasks/${id}/complete`);
      t.clock.advance(1000);
    }
    const end = new Date(t.clock.now() - 1500).toISOString();
    const range = `completed_after=${start}&completed_before=${end}`;
    expect(idsOf((await t.call('GET', `/v1/tasks?${range}`)).body)).toEqual([ids[2], ids[0]]);
    expect(idsOf((await t.call('GET', `/v1/tasks?${range}&tags=early&limit=1`)).body)).toEqual([ids[2]]);
    expect((await t.call('GET', `/v1/tasks?${range}&tags=early&limit=1`)).body.total).toBe(2);
    const created = new Date(Date.parse('2026-01-01T00:00:01.500Z')).toISOString();
    expect(idsOf((await t.call('GET', `/v1/tasks?completed_after=${start}&start_time=${created}`)).body)).toEqual([
      ids[4],
      ids[2],
    ]);
    expect((await t.call('GET', `/v1/tasks?completed_after=${start}&start_time=${created}`)).body.total).toBe(2);
  });

  it('a time range holding most tasks is walked, not sorted again after each write; its total is exact', async () => {
    const t = makeApp();
    const made = await seedImageTasks(t, 300);
    const index = t.app.services.store.tenant('acme', 'test').tasks.timeIndex('updated_at');
    let sorts = 0;
    const seqsBetween = index.seqsBetween.bind(index);
    index.seqsBetween = (from, to) => {
      sorts += 1;
      return seqsBetween(from, to);
    };
    const path = '/v1/tasks?updated_after=2000-01-01T00:00:00Z&limit=100';
    const pages = [(await t.call('GET', path)).body];
    // A write between pages: a new task, and an update that moves a task's updated_at within the range.
    const extra = (await seedImageTasks(t, 1))[0];
    await t.call('POST', `/v1/task/${made[0]}/setMetadata`, { body: { n: 1 } });
    for (let token = pages[0].next_token; token; token = pages.at(-1).next_token) {
      pages.push((await t.call('GET', `${path}&next_token=${token}`)).body);
    }
    expect(sorts).toBe(0);
    expect(pages.map((page) => page.total)).toEqual([300, 301, 301]);
    expect(pages.flatMap(idsOf)).toEqual([...made].reverse());
    expect(pages.flatMap(idsOf)).not.toContain(extra);
  });
});
