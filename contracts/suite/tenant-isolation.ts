import {
  type ContractContext,
  contract,
  expectEqual,
  expectErrorBody,
  expectStatus,
  expectTrue,
  setupStep,
} from '../kit/contract.js';
import { advanceClock, holdTasksPending, readClockMs } from '../kit/control.js';
import { findMember, freshEmail } from '../kit/studio.js';
import { Client } from '../kit/target.js';
import { createTask, getTask, imageTaskBody, listTasks, TASK_NOT_FOUND } from '../kit/tasks.js';

/**
 * Tenants: an account in one mode. Another account, or the same account's live key, must not see
 * or touch a task, and another tenant's task is reported exactly like an absent one (404).
 */

contract(
  "GET /v1/task/{id} and its maintenance routes answer 404 for another tenant's task, leaving it unchanged",
  async (ctx) => {
    const other = ctx.other();
    await holdTasksPending(ctx);
    const task = await createTask(ctx.api, { metadata: { owner: 'a' }, tags: ['mine'] });
    const id = task.task_id;
    const results = [
      await other.get(`/v1/task/${id}`),
      await other.post(`/v1/task/${id}/cancel`),
      await other.post(`/v1/task/${id}/setMetadata`, { owner: 'b' }),
      await other.post(`/v1/task/${id}/unique_id`, { unique_id: ctx.unique('uid') }),
      await other.delete(`/v1/task/${id}/unique_id`),
      await other.post(`/v1/task/${id}/tags`, ['theirs']),
    ];
    for (const res of results)
      await ctx.rule(`${res.request.replace(id, '{id}')} by another tenant answers 404 "${TASK_NOT_FOUND}"`, () => {
        expectErrorBody(res, 404);
        expectEqual(res.body.error, TASK_NOT_FOUND, `${res.request} error`);
      });
    const after = await getTask(ctx.api, id);
    await ctx.rule("another tenant's calls leave the task unchanged", async () => {
      // A target without a control plane may have completed the task meanwhile; canceled it must not be.
      expectEqual(
        [after.status === 'canceled', after.metadata, after.tags],
        [false, { owner: 'a' }, ['mine']],
        'canceled?, metadata and tags after the foreign calls',
      );
      if (await ctx.hasControlPlane()) expectEqual(after.status, 'pending', 'status after the foreign calls');
    });
  },
);

contract("GET /v1/tasks of another tenant leaves out this tenant's tasks", async (ctx) => {
  const other = ctx.other();
  const tag = ctx.unique('mine');
  const uniqueId = ctx.unique('uid');
  await createTask(ctx.api, { tags: [tag], unique_id: uniqueId });
  expectEqual((await listTasks(ctx.api, { tags: tag })).total, 1, 'own list total');
  expectEqual((await listTasks(other, { tags: tag })).total, 0, "other tenant's list total by tag");
  expectEqual((await listTasks(other, { unique_id: uniqueId })).total, 0, "other tenant's list total by unique_id");
});

contract('POST /v1/task/imageannotation may use a unique_id that another tenant holds', async (ctx) => {
  const other = ctx.other();
  const uniqueId = ctx.unique('uid');
  const mine = await createTask(ctx.api, { unique_id: uniqueId });
  const theirs = await createTask(other, { unique_id: uniqueId });
  expectTrue(theirs.task_id !== mine.task_id, 'the two tenants got the same task_id');
  expectEqual(theirs.unique_id, uniqueId, "other tenant's unique_id");
});

contract("POST /_mock/tasks/{id}/complete answers 404 for another tenant's task", async (ctx) => {
  const other = ctx.other();
  await ctx.needControlPlane();
  await holdTasksPending(ctx);
  const task = await createTask(ctx.api);
  const res = await other.post(`/_mock/tasks/${task.task_id}/complete`);
  expectErrorBody(res, 404);
  expectEqual(res.body.error, TASK_NOT_FOUND, `${res.request} error`);
  expectEqual((await getTask(ctx.api, task.task_id)).status, 'pending', 'status after the foreign completion');
});

contract("POST /_mock/clock/advance moves only the caller's clock", async (ctx) => {
  const other = ctx.other();
  await ctx.needControlPlane();
  const hour = 3_600_000;
  const mineBefore = await readClockMs(ctx.api);
  const theirsBefore = await readClockMs(other);
  await advanceClock(other, hour);
  expectTrue((await readClockMs(other)) - theirsBefore >= hour, "the other tenant's clock did not move by an hour");
  const mineMoved = (await readClockMs(ctx.api)) - mineBefore;
  expectTrue(mineMoved < hour, `this tenant's clock moved by ${mineMoved} ms when another tenant advanced its own`);
});

/** The live key of the same account: given (--live-api-key), or derived from a `test_<id>` key. */
function liveClient(ctx: ContractContext): Client {
  if (ctx.target.liveApiKey) return ctx.client(ctx.target.liveApiKey);
  const match = /^test_(.+)$/.exec(ctx.target.apiKey);
  if (!match) return ctx.skip('apiKey is not of the form test_<id>, so no live key can be derived');
  return new Client(ctx.target, `live_${match[1]}`);
}

contract("GET /v1/task/{id} and GET /v1/tasks with the account's live key see none of its test tasks", async (ctx) => {
  const live = liveClient(ctx);
  const probe = await live.get('/v1/tasks', { query: { limit: 1 } });
  if (probe.status === 401) ctx.skip(`derived live key ${live.key} is not accepted by the target`);
  const tag = ctx.unique('testmode');
  const task = await createTask(ctx.api, { tags: [tag] });
  const res = await live.get(`/v1/task/${task.task_id}`);
  expectErrorBody(res, 404);
  expectEqual(res.body.error, TASK_NOT_FOUND, `${res.request} error`);
  expectEqual((await listTasks(live, { tags: tag })).total, 0, 'live list total by the test task tag');
  // A live task is billed work on a real service: create one only where a control plane shows a mock.
  if (!(await ctx.hasControlPlane())) return;
  const liveTask = await createTask(live, { tags: [tag] });
  expectEqual(liveTask.is_test, false, 'is_test of a task made with a live key');
  expectStatus(await ctx.api.get(`/v1/task/${liveTask.task_id}`), 404);
});

contract(
  'a project created with the live key cannot take test tasks, and live and test tasks stay apart',
  async (ctx) => {
    const liveKey = ctx.target.liveApiKey;
    if (!liveKey) return ctx.skip('no liveApiKey given (pass --live-api-key: a live key of the same account)');
    const live = ctx.client(liveKey);
    const tag = ctx.unique('livetest');
    const task = await createTask(ctx.api, { tags: [tag] });
    await ctx.rule('the live key cannot read a test task (404)', async () =>
      expectErrorBody(await live.get(`/v1/task/${task.task_id}`), 404),
    );
    await ctx.rule("the live key's task list leaves out test tasks", async () =>
      expectEqual((await listTasks(live, { tags: tag })).docs.length, 0, 'live list by the test task tag'),
    );
    const project = ctx.unique('liveproject');
    await setupStep('create a project with the live key', async () =>
      expectStatus(await live.post('/v1/projects', { type: 'imageannotation', name: project }), 200),
    );
    await ctx.rule('a test key cannot create a task in a project made with the live key', async () => {
      const res = await ctx.api.post('/v1/task/imageannotation', imageTaskBody({ project }));
      expectTrue(
        res.status >= 400 && res.status < 500,
        `${res.request}: expected a 4xx for a live project used from a test key, got ${res.status} ${res.text}`,
      );
    });
  },
);

/** The live key of the same account, given with --live-api-key, or a skip with the reason. */
function givenLive(ctx: ContractContext): Client {
  const liveKey = ctx.target.liveApiKey;
  if (!liveKey) return ctx.skip('no liveApiKey given (pass --live-api-key: a live key of the same account)');
  return ctx.client(liveKey);
}

const fourXx = (res: { status: number; request: string; text: string }, what: string) =>
  expectTrue(
    res.status >= 400 && res.status < 500,
    `${res.request}: expected a 4xx for ${what}, got ${res.status} ${res.text}`,
  );

/** Creates a project and a batch in it with `client`; their names. */
async function projectAndBatch(ctx: ContractContext, client: Client, label: string) {
  const project = ctx.unique(`${label}project`);
  const batch = ctx.unique(`${label}batch`);
  await setupStep(`create a project and a batch with the ${label} key`, async () => {
    expectStatus(await client.post('/v1/projects', { type: 'imageannotation', name: project }), 200);
    expectStatus(await client.post('/v1/batches', { project, name: batch }), 200);
  });
  return { project, batch };
}

contract(
  'a batch created with the test key takes no live tasks, and one created with the live key no test tasks',
  async (ctx) => {
    const live = givenLive(ctx);
    const liveSide = await projectAndBatch(ctx, live, 'live');
    await ctx.rule('a test key cannot create a task in a batch made with the live key', async () => {
      const res = await ctx.api.post('/v1/task/imageannotation', imageTaskBody({ batch: liveSide.batch }));
      if (res.status === 200 && typeof res.body?.task_id === 'string')
        ctx.created.push({ client: ctx.api, taskId: res.body.task_id });
      fourXx(res, 'a live batch used from a test key');
    });
    // A live task is billed work on a real service: try one only where a control plane shows a mock.
    if (!(await ctx.hasControlPlane())) return;
    const testSide = await projectAndBatch(ctx, ctx.api, 'test');
    await ctx.rule('the live key cannot create a task in a batch made with the test key', async () => {
      const res = await live.post('/v1/task/imageannotation', imageTaskBody({ batch: testSide.batch }));
      if (res.status === 200 && typeof res.body?.task_id === 'string')
        ctx.created.push({ client: live, taskId: res.body.task_id });
      fourXx(res, 'a test batch used from the live key');
    });
  },
);

contract(
  "a file imported with the test key is neither listed for nor usable by the live key (tenant's files)",
  async (ctx) => {
    const live = givenLive(ctx);
    const project = ctx.unique('testfiles');
    const file = await setupStep('import a file with the test key', async () => {
      expectStatus(await ctx.api.post('/v1/projects', { type: 'imageannotation', name: project }), 200);
      const res = await ctx.api.post('/v1/files/import', {
        file_url: 'https://example.com/pixel.png',
        project_name: project,
      });
      expectStatus(res, 200);
      return res.body;
    });
    await ctx.rule("the live key's file listing of the project leaves the file out", async () => {
      const res = await live.get('/v1/files', { query: { projects: project } });
      if (res.status === 200) {
        const ids = (res.body?.docs ?? []).map((doc: { id: string }) => doc.id);
        expectTrue(!ids.includes(file.id), `${res.request}: the live key lists the test file ${file.id}`);
      } else fourXx(res, "a test project's files read with the live key");
    });
    if (!(await ctx.hasControlPlane())) return;
    await ctx.rule("the live key cannot use the test file's attachment_url", async () => {
      const res = await live.post('/v1/task/imageannotation', imageTaskBody({ attachment: file.attachment_url }));
      if (res.status === 200 && typeof res.body?.task_id === 'string')
        ctx.created.push({ client: live, taskId: res.body.task_id });
      expectErrorBody(res, 400, 'attachment');
    });
  },
);

contract("a teammate invited with the test key is not on the live key's team (tenant's team)", async (ctx) => {
  const live = givenLive(ctx);
  const email = freshEmail(ctx, 'testinvitee');
  await setupStep('invite a teammate with the test key', async () =>
    expectStatus(await ctx.api.post('/v1/teams/invite', { emails: [email], team_role: 'member' }), 200),
  );
  const res = await live.get('/v1/teams');
  expectStatus(res, 200);
  expectTrue(!findMember(res.body, email), `${res.request} lists ${email}, invited with the test key`);
});

// The test key's side has its own contract ("with a test key marks the task is_test true").
contract('POST /v1/task/imageannotation with the live key marks the task is_test false', async (ctx) => {
  const live = givenLive(ctx);
  // A live task is billed work on a real service: create one only where a control plane shows a mock.
  if (!(await ctx.hasControlPlane())) {
    ctx.skip('a live task is billed work: created only where a control plane (/_mock) shows a mock');
  }
  const task = await createTask(live);
  expectEqual(task.is_test, false, 'is_test of a task made with the live key');
  expectEqual((await getTask(live, task.task_id)).is_test, false, 'is_test of the live task read back');
});

// Each key acts only on its own data: a batch is the live key's data even where the test key may read it.
contract(
  'POST /v1/batches/{name}/finalize and setMetadata with the test key leave a batch of the live key unchanged',
  async (ctx) => {
    const live = givenLive(ctx);
    const project = ctx.unique('liverapid');
    const name = ctx.unique('livebatch');
    // A rapid project's batch starts in staging, so a finalize that went through would show.
    const created = await setupStep('create a rapid project and a batch with the live key', async () => {
      expectStatus(await live.post('/v1/projects', { type: 'imageannotation', name: project, rapid: true }), 200);
      const res = await live.post('/v1/batches', { project, name });
      expectStatus(res, 200);
      return res.body;
    });
    const path = `/v1/batches/${encodeURIComponent(name)}` as const;
    await ctx.rule('finalize with the test key is refused', async () =>
      fourXx(await ctx.api.post(`${path}/finalize`), 'a live batch finalized with the test key'),
    );
    await ctx.rule('setMetadata with the test key is refused', async () =>
      fourXx(
        await ctx.api.post(`${path}/setMetadata`, { by: 'test key' }),
        "a live batch's metadata set with the test key",
      ),
    );
    await ctx.rule('the live key reads the batch unchanged', async () => {
      const read = await live.get(path);
      expectStatus(read, 200);
      expectEqual(
        [read.body.status, read.body.metadata],
        [created.status, created.metadata],
        'batch [status, metadata]',
      );
    });
  },
);
