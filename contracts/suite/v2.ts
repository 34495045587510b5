import {
  type ContractContext,
  contract,
  expectEqual,
  expectErrorBody,
  expectMatch,
  expectStatus,
  expectTrue,
  setupStep,
} from '../kit/contract.js';
import { holdTasksPending, useCompletion } from '../kit/control.js';
import type { Wire } from '../kit/wire.js';

/**
 * The v2 API (the official Python client's `client.v2`): one store, two faces. Tagged `client`: an
 * implementation of the interface alone is not held to it; one that serves v2 runs `--tags client`.
 */

const byName = (name: string) => encodeURIComponent(name);

/** A chat project made through v1, and its v2 face. */
async function chatProject(ctx: ContractContext) {
  await holdTasksPending(ctx);
  const name = ctx.unique('chat-project');
  return setupStep('a chat project through POST /v1/projects, read through GET /v2/project', async () => {
    expectStatus(await ctx.api.post('/v1/projects', { type: 'chat', name }), 200);
    const read = await ctx.api.get(`/v2/project?project_name=${byName(name)}`);
    expectStatus(read, 200);
    return { name, id: read.body.id as string };
  });
}

async function v2Batch(ctx: ContractContext, project: string, extra: Record<string, unknown> = {}) {
  const name = ctx.unique('v2-batch');
  return setupStep('a batch through POST /v2/batch', async () => {
    const res = await ctx.api.post('/v2/batch', { name, project_name: project, ...extra });
    expectStatus(res, 200);
    return res.body;
  });
}

async function chatTask(ctx: ContractContext, body: Record<string, unknown>) {
  return setupStep('a chat task through POST /v2/task/chat', async () => {
    const res = await ctx.api.post('/v2/task/chat', { template_variables: { prompt: 'Hello?' }, ...body });
    expectStatus(res, 200);
    return res.body;
  });
}

contract('GET /v2/project, /v2/batch and /v2/task read what v1 made, by v2 ids, with the same status', async (ctx) => {
  const project = await chatProject(ctx);
  const batchName = ctx.unique('v1-batch');
  expectStatus(await ctx.api.post('/v1/batches', { project: project.name, name: batchName }), 200);
  const created = await ctx.api.post('/v1/task/chat', { project: project.name, batch: batchName, metadata: { n: 1 } });
  expectStatus(created, 200);
  const batch = await ctx.api.get(`/v2/batch?batch_name=${byName(batchName)}`);
  await ctx.rule('the batch has a 24-hex id, names the project by its id, and is in_progress', () => {
    expectStatus(batch, 200);
    expectMatch(batch.body.id, /^[0-9a-f]{24}$/, 'batch id');
    expectEqual(batch.body.project, project.id, 'batch.project');
    expectEqual(batch.body.status, 'in_progress', 'batch.status');
  });
  await ctx.rule('GET /v2/batch?batch_id= and GET /v2/project?project_id= find the same objects', async () => {
    expectEqual((await ctx.api.get(`/v2/batch?batch_id=${batch.body.id}`)).body.name, batchName, 'batch by id');
    expectEqual((await ctx.api.get(`/v2/project?project_id=${project.id}`)).body.name, project.name, 'project by id');
  });
  await ctx.rule(
    'GET /v2/task shows the v1 task: same id, project and batch ids, status, metadata, no threads',
    async () => {
      const task = await ctx.api.get(`/v2/task?task_id=${created.body.task_id}`);
      expectStatus(task, 200);
      expectEqual(task.body.task_id, created.body.task_id, 'task_id');
      expectEqual(task.body.project, project.id, 'task.project');
      expectEqual(task.body.batch, batch.body.id, 'task.batch');
      expectEqual(task.body.status, created.body.status, 'task.status');
      expectEqual(task.body.metadata, { n: 1 }, 'task.metadata');
      expectEqual(task.body.threads, [], 'threads of a pending task');
    },
  );
});

contract('POST /v2/batch and /v2/task/chat make what v1 reads by name; v2 metadata changes show in v1', async (ctx) => {
  const project = await chatProject(ctx);
  const batch = await v2Batch(ctx, project.name, { metadata: { a: 1 } });
  const task = await chatTask(ctx, { batch_id: batch.id, metadata: { a: 1 } });
  await ctx.rule('GET /v1/batches/{name} reads the v2 batch, in its project', async () => {
    const read = await ctx.api.get(`/v1/batches/${byName(batch.name)}`);
    expectStatus(read, 200);
    expectEqual(read.body.project, project.name, 'v1 batch.project');
  });
  await ctx.rule('GET /v1/task/{id} reads the chat task, of type chat, in the batch', async () => {
    const read = await ctx.api.get(`/v1/task/${task.task_id}`);
    expectStatus(read, 200);
    expectEqual(read.body.type, 'chat', 'v1 task.type');
    expectEqual(read.body.batch, batch.name, 'v1 task.batch');
  });
  await ctx.rule('POST /v2/batch/metadata with merge: true merges; without merge it replaces', async () => {
    const merged = await ctx.api.post('/v2/batch/metadata', { batch_id: batch.id, metadata: { b: 2 }, merge: true });
    expectEqual(merged.body.metadata, { a: 1, b: 2 }, 'merged batch metadata');
    expectStatus(await ctx.api.post('/v2/batch/metadata', { batch_name: batch.name, metadata: { c: 3 } }), 200);
    expectEqual((await ctx.api.get(`/v1/batches/${byName(batch.name)}`)).body.metadata, { c: 3 }, 'v1 metadata');
  });
  await ctx.rule('POST /v2/task/metadata with merge: true merges; without merge it replaces', async () => {
    const merged = await ctx.api.post('/v2/task/metadata', { task_id: task.task_id, metadata: { b: 2 }, merge: true });
    expectEqual(merged.body.metadata, { a: 1, b: 2 }, 'merged task metadata');
    expectStatus(await ctx.api.post('/v2/task/metadata', { task_id: task.task_id, metadata: { c: 3 } }), 200);
    expectEqual((await ctx.api.get(`/v1/task/${task.task_id}`)).body.metadata, { c: 3 }, 'v1 task metadata');
  });
});

contract(
  'POST /v2/batch/finalize, /pause, /resume and /cancel move a batch as v2 allows, and refuse the rest',
  async (ctx) => {
    const project = await chatProject(ctx);
    const post = (verb: string, batchId: string) => ctx.api.post(`/v2/batch/${verb}`, { batch_id: batchId });
    const staged = await v2Batch(ctx, project.name, { staging_batch: true });
    await ctx.rule('staging_batch: true starts in staging; pause and resume of a staging batch are 400s', async () => {
      expectEqual(staged.status, 'staging', 'status');
      expectErrorBody(await post('pause', staged.id), 400);
      expectErrorBody(await post('resume', staged.id), 400);
    });
    await ctx.rule(
      'finalize moves staging to in_progress and answers the batch; a second finalize is a 400',
      async () => {
        const res = await post('finalize', staged.id);
        expectStatus(res, 200);
        expectEqual(res.body.status, 'in_progress', 'status after finalize');
        expectErrorBody(await post('finalize', staged.id), 400);
      },
    );
    await ctx.rule('pause (of an empty batch too) answers {batch, message}; resume brings it back', async () => {
      const paused = await post('pause', staged.id);
      expectStatus(paused, 200);
      expectEqual(paused.body.batch.status, 'paused', 'status after pause');
      expectTrue(typeof paused.body.message === 'string', 'pause answers a message');
      expectErrorBody(await post('pause', staged.id), 400);
      const resumed = await post('resume', staged.id);
      expectEqual(resumed.body.batch.status, 'in_progress', 'status after resume');
    });
    await ctx.rule(
      'cancel cancels the batch and its pending tasks; a cancelled batch cannot resume or cancel',
      async () => {
        const task = await chatTask(ctx, { batch_id: staged.id });
        const cancelled = await post('cancel', staged.id);
        expectStatus(cancelled, 200);
        expectEqual(cancelled.body.batch.status, 'cancelled', 'status after cancel');
        expectEqual((await ctx.api.get(`/v2/task?task_id=${task.task_id}`)).body.status, 'canceled', 'its task');
        expectErrorBody(await post('resume', staged.id), 400);
        expectErrorBody(await post('cancel', staged.id), 400);
      },
    );
    await ctx.rule('a cancelled batch takes no new task (400)', async () => {
      expectErrorBody(await ctx.api.post('/v2/task/chat', { batch_id: staged.id }), 400);
    });
  },
);

contract('GET /v2/tasks and /v2/batches page newest first by next_token, absent on the last page', async (ctx) => {
  const project = await chatProject(ctx);
  const batch = await v2Batch(ctx, project.name);
  const made: string[] = [];
  for (let i = 0; i < 3; i += 1) made.push((await chatTask(ctx, { batch_id: batch.id })).task_id);
  await ctx.rule('limit=2 pages through the batch newest first; the last page has no next_token', async () => {
    const first = await ctx.api.get(`/v2/tasks?batch_id=${batch.id}&limit=2`);
    expectStatus(first, 200);
    expectEqual(
      first.body.tasks.map((t: { task_id: string }) => t.task_id),
      [made[2], made[1]],
      'first page',
    );
    expectMatch(first.body.next_token, /./, 'next_token of the first page');
    const second = await ctx.api.get(`/v2/tasks?batch_id=${batch.id}&limit=2&next_token=${first.body.next_token}`);
    expectEqual(
      second.body.tasks.map((t: { task_id: string }) => t.task_id),
      [made[0]],
      'second page',
    );
    expectTrue(second.body.next_token === undefined || second.body.next_token === null, 'no next_token at the end');
  });
  await ctx.rule('GET /v2/batches?project_name= lists the project batch with the same paging', async () => {
    const other = await v2Batch(ctx, project.name);
    const page = await ctx.api.get(`/v2/batches?project_id=${project.id}&limit=1`);
    expectEqual(
      page.body.batches.map((b: { id: string }) => b.id),
      [other.id],
      'newest batch first',
    );
    const rest = await ctx.api.get(`/v2/batches?project_id=${project.id}&limit=1&next_token=${page.body.next_token}`);
    expectEqual(
      rest.body.batches.map((b: { id: string }) => b.id),
      [batch.id],
      'then the older one',
    );
  });
});

contract(
  'GET /v2/task?expand=project&expand=batch embeds both; GET /v2/tasks without project or batch is a 400',
  async (ctx) => {
    const project = await chatProject(ctx);
    const batch = await v2Batch(ctx, project.name);
    const task = await chatTask(ctx, { batch_name: batch.name });
    await ctx.rule('expand embeds the project and batch objects with their ids', async () => {
      const read = await ctx.api.get(`/v2/task?task_id=${task.task_id}&expand=project&expand=batch`);
      expectStatus(read, 200);
      expectEqual(read.body.project.id, project.id, 'expanded project id');
      expectEqual(read.body.batch.id, batch.id, 'expanded batch id');
    });
    await ctx.rule('GET /v2/tasks with no selector answers 400 in the error body', async () => {
      expectErrorBody(await ctx.api.get('/v2/tasks?limit=5'), 400);
    });
    await ctx.rule('unknown ids answer 404 in the error body', async () => {
      expectErrorBody(await ctx.api.get('/v2/task?task_id=000000000000000000000000'), 404);
      expectErrorBody(await ctx.api.get('/v2/batch?batch_id=000000000000000000000000'), 404);
      expectErrorBody(await ctx.api.get('/v2/project?project_id=000000000000000000000000'), 404);
    });
  },
);

contract(
  'GET /v2/task of a completed task has threads; each annotation is readable through /v2/annotation',
  async (ctx) => {
    const project = await chatProject(ctx);
    const task = await chatTask(ctx, { project_id: project.id });
    expectStatus(await ctx.api.post(`/_mock/tasks/${task.task_id}/complete`), 200);
    const read = await ctx.api.get(`/v2/task?task_id=${task.task_id}`);
    const annotations = (read.body.threads ?? []).flatMap((thread: Wire) => [
      ...thread.annotations,
      ...thread.turns.flatMap((turn: Wire) => [
        ...turn.annotations,
        ...turn.messages.flatMap((m: Wire) => m.annotations),
      ]),
    ]);
    await ctx.rule('a completed task has at least one thread of turns of messages', () => {
      expectEqual(read.body.status, 'completed', 'status');
      expectTrue(read.body.threads.length > 0 && read.body.threads[0].turns.length > 0, 'threads and turns');
    });
    await ctx.rule('every annotation has an id and one of the twelve types, and reads back by id', async () => {
      expectTrue(annotations.length > 0, 'some annotation');
      for (const annotation of annotations) {
        const back = await ctx.api.get(`/v2/annotation?annotation_id=${encodeURIComponent(annotation.id)}`);
        expectStatus(back, 200);
        expectEqual(back.body.type, annotation.type, `annotation ${annotation.id} type`);
      }
    });
  },
);

contract(
  'POST /_mock/v2/deliveries delivers completed tasks that GET /v2/deliveries and /v2/delivery read',
  async (ctx) => {
    const project = await chatProject(ctx);
    const task = await chatTask(ctx, { project_name: project.name });
    expectStatus(await ctx.api.post(`/_mock/tasks/${task.task_id}/complete`), 200);
    const name = ctx.unique('delivery');
    const made = await ctx.api.post('/_mock/v2/deliveries', { name, project: project.name });
    await ctx.rule('the delivery holds the completed task', () => {
      expectStatus(made, 200);
      expectEqual(made.body.task_count, 1, 'task_count');
    });
    await ctx.rule('GET /v2/deliveries lists it; GET /v2/delivery answers its tasks', async () => {
      const list = await ctx.api.get(`/v2/deliveries?project_id=${project.id}`);
      expectEqual(
        list.body.deliveries.map((d: { id: string }) => d.id),
        [made.body.id],
        'deliveries',
      );
      const one = await ctx.api.get(`/v2/delivery?delivery_id=${made.body.id}`);
      expectEqual(
        one.body.tasks.map((t: { task_id: string }) => t.task_id),
        [task.task_id],
        'delivered tasks',
      );
    });
  },
);

// docs.genai.scale.com v2/batch-finalize: "once finalized ... task processing will begin".
contract(
  'POST /v2/batch/finalize: a staging batch holds its tasks until finalized, then answers in_progress',
  async (ctx) => {
    const project = await chatProject(ctx);
    const batch = await v2Batch(ctx, project.name, { staging_batch: true });
    await useCompletion(ctx, ctx.api, { mode: 'immediate' });
    const task = await chatTask(ctx, { batch_id: batch.id });
    await ctx.rule('a task of a staging batch stays pending, whatever the completion mode', async () =>
      expectEqual((await ctx.api.get(`/v2/task?task_id=${task.task_id}`)).body.status, 'pending', 'task status'),
    );
    const finalized = await ctx.api.post('/v2/batch/finalize', { batch_id: batch.id });
    await ctx.rule('finalize answers the batch in_progress', () => {
      expectStatus(finalized, 200);
      expectEqual(finalized.body.status, 'in_progress', 'batch status');
    });
    await ctx.rule('then its tasks are processed: the task completes, and the batch with it', async () => {
      expectEqual((await ctx.api.get(`/v2/task?task_id=${task.task_id}`)).body.status, 'completed', 'task status');
      expectEqual((await ctx.api.get(`/v2/batch?batch_id=${batch.id}`)).body.status, 'completed', 'batch status');
    });
  },
);
