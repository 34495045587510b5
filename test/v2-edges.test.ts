import { describe, expect, it } from 'vitest';
import { SLICE } from '../src/runtime/slices.js';
import { onEvent } from '../src/store/tenant.js';
import { createImageTask, makeApp, STRICT } from './helpers.js';

/** v2 at the edge: the same keys, tenants, faults, journal and limits as v1. */

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('v2 reads kept per task revision', () => {
  it('a change, a redo or a newer delivery shows at once in every v2 read of the task', async () => {
    const t = makeApp();
    await t.call('POST', '/v1/projects', { body: { type: 'chat', name: 'p' } });
    const task = (await t.call('POST', '/v2/task/chat', { body: { project_name: 'p', metadata: { n: 1 } } })).body;
    const views = async () => ({
      one: (await t.call('GET', `/v2/task?task_id=${task.task_id}`)).body,
      page: (await t.call('GET', '/v2/tasks?project_name=p')).body.tasks[0],
    });
    expect((await views()).one.metadata).toEqual({ n: 1 });
    await t.call('POST', `/v1/task/${task.task_id}/setMetadata`, { body: { n: 2 } });
    expect((await views()).one.metadata).toEqual({ n: 2 });
    expect((await views()).page.metadata).toEqual({ n: 2 });
    const threads = {
      threads: [{ id: 'th', turns: [], annotations: [{ id: 'given', key: 'k', type: 'text', value: 'v' }] }],
    };
    await t.call('POST', `/_mock/tasks/${task.task_id}/complete`, { body: { response: { ok: true }, ...threads } });
    const completed = await views();
    expect([completed.one.status, completed.one.threads[0].id, completed.page.threads[0].id]).toEqual([
      'completed',
      'th',
      'th',
    ]);
    const first = (await t.call('POST', '/_mock/v2/deliveries', { body: { name: 'd1', project: 'p' } })).body;
    const docs = async () => (await t.call('GET', `/v2/delivery/tasks?project_name=p`)).body.docs[0];
    expect((await docs()).delivery_id).toBe(first.id);
    const second = await t.call('POST', '/_mock/v2/deliveries', {
      body: { name: 'd2', project: 'p', task_ids: [task.task_id] },
    });
    expect((await docs()).delivery_id).toBe(second.body.id);
    await t.call('POST', `/_mock/tasks/${task.task_id}/redo`);
    const redone = await views();
    expect([redone.one.status, redone.one.threads, redone.page.threads]).toEqual(['pending', [], []]);
    const delivery = (await t.call('GET', `/v2/delivery?delivery_id=${second.body.id}`)).body;
    expect(delivery.tasks[0].status).toBe('pending');
  });
});

describe('a value that names a project by id or by name resolves one way everywhere', () => {
  it("a project named like another's id: POST /v2/batch and POST /_mock/v2/deliveries both take the id", async () => {
    const t = makeApp();
    const first = (await t.call('POST', '/v1/projects', { body: { type: 'chat', name: 'first' } })).body;
    const firstId = (await t.call('GET', '/v2/projects')).body.projects.find(
      (p: { name: string }) => p.name === 'first',
    )?.id;
    expect(firstId).toMatch(/^[0-9a-f]{24}$/);
    expect(first.name).toBe('first');
    // A second project whose name is the first one's id.
    expect((await t.call('POST', '/v1/projects', { body: { type: 'chat', name: firstId } })).status).toBe(200);
    const batch = await t.call('POST', '/v2/batch', { body: { name: 'b', project: firstId } });
    expect(batch.status).toBe(200);
    const task = (await t.call('POST', '/v2/task/chat', { body: { project_name: 'first' } })).body;
    expect((await t.call('POST', `/_mock/tasks/${task.task_id}/complete`)).status).toBe(200);
    const delivery = await t.call('POST', '/_mock/v2/deliveries', { body: { name: 'd', project: firstId } });
    expect(delivery.status).toBe(200);
    const projectOf = async (path: string) => (await t.call('GET', path)).body;
    const readBatch = await projectOf(`/v2/batch?batch_id=${batch.body.id}&expand=project`);
    // The delivery names its project by id: the first project's, not the id of the project named so.
    expect([readBatch.project.name, delivery.body.project]).toEqual(['first', firstId]);
  });
});

describe('v2 edge', () => {
  it("a test key's reset leaves the live key's /v2/batches paging where it was: no skip, no repeat", async () => {
    const t = makeApp();
    const live = { key: 'live_acme' };
    await t.call('POST', '/v1/projects', { ...live, body: { type: 'chat', name: 'p' } });
    await t.call('POST', '/v1/projects', { body: { type: 'chat', name: 'q' } });
    for (const name of ['l1', 'l2', 'l3']) {
      await t.call('POST', '/v2/batch', { ...live, body: { name, project_name: 'p' } });
      await t.call('POST', '/v2/batch', { body: { name: `t-${name}`, project_name: 'q' } });
    }
    const names = (page: { batches: { name: string }[] }) => page.batches.map((b) => b.name);
    const first = (await t.call('GET', '/v2/batches?project_name=p&limit=1', live)).body;
    expect(names(first)).toEqual(['l3']);
    expect((await t.call('POST', '/_mock/reset')).status).toBe(200);
    const next = (await t.call('GET', `/v2/batches?project_name=p&limit=2&next_token=${first.next_token}`, live)).body;
    expect(names(next)).toEqual(['l2', 'l1']);
  });

  it('GET /v2/delivery/tasks pages hold their place: a task made or redone between pages skips nothing', async () => {
    const t = makeApp();
    await t.call('POST', '/v1/projects', { body: { type: 'chat', name: 'p' } });
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const task = (await t.call('POST', '/v2/task/chat', { body: { project_name: 'p' } })).body;
      await t.call('POST', `/_mock/tasks/${task.task_id}/complete`);
      made.push(task.task_id);
    }
    const ids = (page: { docs: { task_id: string }[] }) => page.docs.map((doc) => doc.task_id);
    const byProject = (await t.call('GET', '/v2/delivery/tasks?project_name=p&limit=1')).body;
    await t.call('POST', '/v2/task/chat', { body: { project_name: 'p' } });
    const after = `/v2/delivery/tasks?project_name=p&limit=5&next_token=${byProject.next_token}`;
    expect([...ids(byProject), ...ids((await t.call('GET', after)).body)]).toEqual([...made].reverse());
    const delivery = (await t.call('POST', '/_mock/v2/deliveries', { body: { name: 'd', project: 'p' } })).body;
    const query = `/v2/delivery/tasks?delivery_id=${delivery.id}&status=completed&limit=1`;
    const first = (await t.call('GET', query)).body;
    await t.call('POST', `/_mock/tasks/${ids(first)[0]}/redo`);
    const second = (await t.call('GET', `${query}&next_token=${first.next_token}`)).body;
    expect([...ids(first), ...ids(second)]).toEqual([made[2], made[1]]);
  });

  // A batch's cancel, and the completions its finalize or resume lets go, are done in slices.
  it.each([
    ['cancel', 'POST /v2/batch/cancel', 'task_canceled', 'status=pending', 0],
    ['finalize', 'POST /v1/batches/big/finalize', 'task_completed', 'status=completed', 600],
  ] as const)('a %s of 600 tasks lets other requests run between its slices, answering when done', async (...row) => {
    const [, request, kind, filter, count] = row;
    const t = makeApp();
    await t.call('PATCH', '/_mock/settings', { body: { completion: { mode: 'immediate' } } });
    await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name: 'p' } });
    await t.call('POST', '/v2/batch', { body: { project_name: 'p', name: 'big', staging_batch: true } });
    // Made in a staging batch, the tasks wait for its finalize to complete.
    for (let i = 0; i < 600; i++) await createImageTask(t, { project: 'p', batch: 'big' });
    let moved = 0;
    let other: Promise<number> | undefined;
    const stop = t.app.services.store.changes.subscribe(
      onEvent((_tenant, event) => {
        if (event.kind !== kind) return;
        moved += 1;
        // Sent as the first task moves: it answers while the batch's move is still under way.
        other ??= t.call('GET', '/v1/tasks?limit=1', { key: 'test_other' }).then(() => moved);
      }),
    );
    const [method, path] = request.split(' ') as [string, string];
    const res = await t.call(method, path, { body: { batch_name: 'big' } });
    stop();
    expect(res.status).toBe(200);
    expect([moved, await other]).toEqual([600, SLICE]);
    expect((await t.call('GET', `/v1/tasks?batch=big&${filter}`)).body.total).toBe(count);
  });

  it('a bearer key (as the v2 client sends it) and a Basic one see the same tenant; no key is a 401', async () => {
    const t = makeApp();
    await t.call('POST', '/v1/projects', { body: { type: 'chat', name: 'p' } });
    const res = await t.app.request('/v2/projects', { headers: bearer('test_acme') });
    expect(((await res.json()) as { projects: unknown[] }).projects).toHaveLength(1);
    expect((await t.call('GET', '/v2/projects', { key: null })).status).toBe(401);
  });

  it('a fault rule on a /v2 path answers its status there; the request journal holds /v2 requests', async () => {
    const t = makeApp();
    const rule = await t.call('POST', '/_mock/faults', { body: { path: '/v2/projects', status: 503, times: 1 } });
    expect(rule.status, JSON.stringify(rule.body)).toBe(200);
    const faulted = await t.call('GET', '/v2/projects');
    expect(faulted.status).toBe(503);
    expect(faulted.body.status_code).toBe(503);
    expect((await t.call('GET', '/v2/projects')).status).toBe(200);
    const journal = await t.call('GET', '/_mock/requests?path=/v2/projects');
    expect(journal.body.requests.map((r: { status: number }) => r.status)).toEqual([200, 503]);
  });

  it('a query key the operation does not take (strict), or an unknown expand value, is a 400 naming it', async () => {
    const t = makeApp(STRICT);
    const unknown = await t.call('GET', '/v2/projects?colour=red');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/colour/);
    const expand = await t.call('GET', '/v2/task?task_id=x&expand=owner');
    expect(expand.status).toBe(400);
    expect(expand.body.error).toMatch(/expand/);
  });

  it('a merged metadata over 10 KB is a 400 and leaves the batch as it was', async () => {
    const t = makeApp();
    await t.call('POST', '/v1/projects', { body: { type: 'chat', name: 'p' } });
    const half = 'x'.repeat(6000);
    const batch = await t.call('POST', '/v2/batch', { body: { name: 'b', project_name: 'p', metadata: { a: half } } });
    const merged = await t.call('POST', '/v2/batch/metadata', {
      body: { batch_id: batch.body.id, metadata: { b: half }, merge: true },
    });
    expect(merged.status).toBe(400);
    expect(merged.body.error).toMatch(/metadata/);
    expect((await t.call('GET', `/v2/batch?batch_id=${batch.body.id}`)).body.metadata).toEqual({ a: half });
  });

  it('POST /v2/task/chat into a project that is not a chat project is a 400 naming its type', async () => {
    const t = makeApp();
    await t.call('POST', '/v1/projects', { body: { type: 'categorization', name: 'cats' } });
    const res = await t.call('POST', '/v2/task/chat', { body: { project_name: 'cats' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/categorization/);
  });
});
