import { afterAll, beforeAll, expect, it } from 'vitest';
import { present } from '../helpers.js';
import {
  control,
  freshKey,
  loadSdk,
  type Mock,
  ok,
  refused,
  type ScaleApi,
  type ScaleError,
  type SdkClient,
  type SdkTask,
  type SdkTaskList,
  startMock,
  tapAnswers,
} from './node-sdk-harness.js';

/**
 * Node SDK (`scaleapi` 2.3.2) against a real labelmock server: fetchTask, cancelTask, tasks,
 * Task#refresh, Task#cancel and the errors, through the SDK's public API only. Completed tasks come
 * from the control plane. Tests that list tasks take their own key, so counts are exact.
 */

let mock: Mock;
let sdk: ScaleApi;
let key: string;
let client: SdkClient;
let answers: ReturnType<typeof tapAnswers>;

beforeAll(async () => {
  mock = await startMock(); // test keys start in manual mode: tasks stay pending until completed here
  sdk = loadSdk(mock);
  answers = tapAnswers();
  key = freshKey('nodesdk');
  client = new sdk.ScaleClient(key);
});
afterAll(() => mock.close());

const categorization = (n = 0) => ({
  callback_url: 'http://www.example.com/callback',
  instruction: `Is company ${n} public or private?`,
  attachment_type: 'website',
  attachment: `http://www.example.com/company/${n}`,
  categories: ['public', 'private'],
  metadata: { n },
});
const create = (c: SdkClient = client, n = 0) =>
  ok<SdkTask>((cb) => c.createTask('categorization', categorization(n), cb));
const list = (c: SdkClient, params: Record<string, unknown>) => ok<SdkTaskList>((cb) => c.tasks(params, cb));
/** A client on an empty tenant of its own (for the listing tests), with its key for the control plane. */
const own = (name: string) => {
  const k = freshKey(`nodesdk_${name}`);
  return { key: k, client: new sdk.ScaleClient(k) };
};

it('fetchTask: returns the task as created, with id set to task_id', async () => {
  const created = await create();
  const task = await ok<SdkTask>((cb) => client.fetchTask(created.id, cb));
  expect(answers.at(-1)?.status).toBe(200);
  expect(task.id).toBe(created.task_id);
  expect(task).toMatchObject({ task_id: created.id, type: 'categorization', status: 'pending', metadata: { n: 0 } });
  expect(task.created_at).toBe(created.created_at);
  expect(task.params).toMatchObject({
    categories: ['public', 'private'],
    attachment: 'http://www.example.com/company/0',
  });
});

it('fetchTask: shows a task completed through the control plane with its response', async () => {
  const created = await create();
  expect((await control(mock, key, 'POST', `/tasks/${created.id}/complete`)).status).toBe(200);
  const task = await ok<SdkTask>((cb) => client.fetchTask(created.id, cb));
  expect(task.status).toBe('completed');
  expect(task.completed_at).toEqual(expect.any(String));
  expect(task.response).toEqual({ category: expect.stringMatching(/^(public|private)$/), category_id: null });
});

it('fetchTask: an unknown task id is a ScaleException with errcode 404', async () => {
  const err = await refused((cb) => client.fetchTask('fake_id_qwertyuiop', cb));
  expect(err).toBeInstanceOf(sdk.ScaleException);
  expect(err.errcode).toBe(404);
  expect(err.message).toBe('Task with that ID not found.');
  expect(answers.at(-1)?.body).toEqual({ status_code: 404, error: 'Task with that ID not found.' });
});

it("fetchTask: another tenant's task is a 404 too", async () => {
  const created = await create();
  const err = await refused((cb) => own('other').client.fetchTask(created.id, cb));
  expect(err.errcode).toBe(404);
});

it('fetchTask: a key that is not a test_/live_ key is a ScaleException with errcode 401', async () => {
  const err = await refused((cb) => new sdk.ScaleClient('not a key').fetchTask('whatever', cb));
  expect(err).toBeInstanceOf(sdk.ScaleException);
  expect(err.errcode).toBe(401);
  expect(err.message).toEqual(expect.any(String));
});

it('cancelTask: cancels a pending task and answers it canceled; again is still 200', async () => {
  const created = await create();
  const canceled = await ok<SdkTask>((cb) => client.cancelTask(created.id, cb));
  expect(canceled).toMatchObject({ id: created.id, status: 'canceled' });
  const again = await ok<SdkTask>((cb) => client.cancelTask(created.id, cb));
  expect(again.status).toBe('canceled');
  expect((await ok<SdkTask>((cb) => client.fetchTask(created.id, cb))).status).toBe('canceled');
});

it('cancelTask: a completed task is a ScaleException with errcode 400', async () => {
  const created = await create();
  await control(mock, key, 'POST', `/tasks/${created.id}/complete`);
  const err = await refused((cb) => client.cancelTask(created.id, cb));
  expect(err).toBeInstanceOf(sdk.ScaleException);
  expect(err.errcode).toBe(400);
  expect((await ok<SdkTask>((cb) => client.fetchTask(created.id, cb))).status).toBe('completed');
});

it('cancelTask: an unknown task id is a ScaleException with errcode 404', async () => {
  const err = await refused((cb) => client.cancelTask('fake_id_qwertyuiop', cb));
  expect(err).toBeInstanceOf(sdk.ScaleException);
  expect(err.errcode).toBe(404);
});

it('Task#refresh: updates the same object in place once the task completes', async () => {
  const task = await create();
  expect(task.status).toBe('pending');
  await control(mock, key, 'POST', `/tasks/${task.id}/complete`);
  const refreshed = await ok<SdkTask>((cb) => task.refresh(cb));
  expect(refreshed).toBe(task);
  expect(task).toMatchObject({ status: 'completed', response: { category: expect.any(String) } });
});

it('Task#refresh: a task the tenant cannot see any more is a 404', async () => {
  const { key: k, client: c } = own('reset');
  const task = await create(c);
  expect((await control(mock, k, 'POST', '/reset')).status).toBe(200);
  const err = await refused((cb) => task.refresh(cb));
  expect(err.errcode).toBe(404);
  expect(task.status).toBe('pending'); // left as it was
});

it('Task#cancel: cancels a pending task; a second task completed first is refused with 400', async () => {
  const pending = await create();
  expect(await ok<SdkTask>((cb) => pending.cancel(cb))).toMatchObject({ id: pending.id, status: 'canceled' });
  const done = await create();
  await control(mock, key, 'POST', `/tasks/${done.id}/complete`);
  expect((await refused((cb) => done.cancel(cb))).errcode).toBe(400);
});

it('tasks: lists newest first with total, limit, offset and has_more; docs are Task objects', async () => {
  const { client: c } = own('list');
  const made = [await create(c, 1), await create(c, 2), await create(c, 3)] as const;
  const page = await list(c, {});
  expect(page).toMatchObject({ total: 3, limit: 100, offset: 0, has_more: false });
  expect(page.docs.map((t) => t.id)).toEqual(made.map((t) => t.id).reverse());
  const newest = present(page.docs[0], 'the newest task');
  const refreshed = await ok<SdkTask>((cb) => newest.refresh(cb)); // a Task, bound to the client
  expect(refreshed.id).toBe(made[2].id);
});

it('tasks: offset paging walks every task exactly once, newest first, and echoes offset', async () => {
  const { client: c } = own('paging');
  const made: string[] = [];
  for (let n = 0; n < 7; n++) made.push((await create(c, n)).id);
  const seen: string[] = [];
  for (let offset = 0; ; offset += 3) {
    const page = await list(c, { limit: 3, offset });
    expect(page).toMatchObject({ limit: 3, offset, total: 7 });
    seen.push(...page.docs.map((t) => t.id));
    expect(page.has_more).toBe(offset + 3 < 7);
    if (!page.has_more) break;
  }
  expect(seen).toEqual([...made].reverse());
});

it('tasks: filters by status and type', async () => {
  const { key: k, client: c } = own('filters');
  const [first, second] = [await create(c, 1), await create(c, 2)];
  const { categories: _c, ...common } = categorization(3);
  const other = await ok<SdkTask>((cb) =>
    c.createTask('transcription', { ...common, fields: { name: 'Name of the company' } }, cb),
  );
  await control(mock, k, 'POST', `/tasks/${first.id}/complete`);
  expect((await list(c, { status: 'completed' })).docs.map((t) => t.id)).toEqual([first.id]);
  expect((await list(c, { status: 'pending' })).docs.map((t) => t.id)).toEqual([other.id, second.id]);
  expect((await list(c, { type: 'transcription' })).docs.map((t) => t.id)).toEqual([other.id]);
  expect((await list(c, { type: 'categorization', status: 'pending' })).docs.map((t) => t.id)).toEqual([second.id]);
});

/** Waits (turn by turn, not a fixed sleep) until the clock shows a later millisecond than now. */
async function nextMillisecond(): Promise<void> {
  const now = Date.now();
  while (Date.now() <= now) await new Promise((resolve) => setImmediate(resolve));
}

it('tasks: start_time and end_time bound created_at (ISO strings as the SDK documents)', async () => {
  const { client: c } = own('times');
  const before = await create(c, 1);
  await nextMillisecond();
  const start = new Date().toISOString();
  await nextMillisecond();
  const inside = await create(c, 2);
  await nextMillisecond();
  const end = new Date().toISOString();
  await nextMillisecond();
  await create(c, 3);
  expect((await list(c, { start_time: start, end_time: end })).docs.map((t) => t.id)).toEqual([inside.id]);
  expect((await list(c, { end_time: start })).docs.map((t) => t.id)).toEqual([before.id]);
  expect((await list(c, { start_time: end })).total).toBe(1);
});

it('tasks: completion mode immediate (PATCH /_mock/settings) lists new tasks as completed', async () => {
  const { key: k, client: c } = own('immediate');
  expect((await control(mock, k, 'PATCH', '/settings', { completion: { mode: 'immediate' } })).status).toBe(200);
  const created = await create(c);
  expect(created.status).toBe('pending'); // the creation answer says pending, as on the real service
  const page = await list(c, { status: 'completed' });
  expect(page.docs.map((t) => t.id)).toEqual([created.id]);
});

it('tasks: a limit outside 1-100 is a ScaleException with errcode 400', async () => {
  const err = await refused((cb) => client.tasks({ limit: 500 }, cb));
  expect(err).toBeInstanceOf(sdk.ScaleException);
  expect(err.errcode).toBe(400);
  expect(err.message).toContain('limit');
});

it('tasks: an unknown parameter is refused by the SDK, then (second callback) ignored by the server', async () => {
  // The SDK calls back once for its own check and still sends the request, then calls back again.
  const calls: Array<ScaleError | null> = [];
  await new Promise<void>((resolve) => {
    // A missing second callback fails below instead of timing out: a bound for a hang, far under testTimeout.
    const hang = setTimeout(resolve, 30_000);
    client.tasks({ bogus: 0 }, (err) => {
      if (calls.push(err) < 2) return;
      clearTimeout(hang);
      resolve();
    });
  });
  expect(calls).toHaveLength(2);
  expect(calls[0]).toBeInstanceOf(sdk.ScaleInvalidRequest);
  expect(calls[0]?.message).toBe('Illegal parameter bogus for ScaleClient.tasks');
  // The real service ignores a parameter it does not know; labelmock does too by default and says so in
  // Labelmock-Warning (--unknown-params strict answers the 400).
  expect(calls[1]).toBeNull();
});
