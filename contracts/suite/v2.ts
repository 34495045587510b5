import {
  type ContractContext,
  contract,
  expectEqual,
  expectErrorBody,
  expectMatch,
  expectOneOf,
  expectStatus,
  expectTrue,
  expectType,
  setupStep,
} from '../kit/contract.js';
import { holdTasksPending, useCompletion } from '../kit/control.js';

/**
 * The v2 API (the official Python client's `client.v2`): one store, two faces. Tagged `client`: an
 * implementation of the interface alone is not held to it; one that serves v2 runs `--tags client`.
 */

const byName = (name: string) => encodeURIComponent(name);

/** The moves of POST /v2/batch/{move}, each its own route. */
type BatchMove = 'finalize' | 'pause' | 'resume' | 'cancel';

/** That `value` is an object whose `fields` have these JSON types ('array', 'object', 'string', ...). */
type JsonType = 'string' | 'number' | 'boolean' | 'object' | 'array';
function expectShape(value: unknown, fields: Record<string, JsonType>, where: string): void {
  expectType(value, 'object', where);
  for (const [field, type] of Object.entries(fields)) expectType(value[field], type, `${where}.${field}`);
}

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
    const post = <Move extends BatchMove>(move: Move, batchId: string) =>
      ctx.api.post(`/v2/batch/${move}`, { batch_id: batchId });
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
      const { project: expandedProject, batch: expandedBatch } = read.body;
      expectType(expandedProject, 'object', 'the expanded project');
      expectType(expandedBatch, 'object', 'the expanded batch');
      expectEqual(expandedProject.id, project.id, 'expanded project id');
      expectEqual(expandedBatch.id, batch.id, 'expanded batch id');
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
    const annotations = (read.body.threads ?? []).flatMap((thread) => [
      ...thread.annotations,
      ...thread.turns.flatMap((turn) => [...turn.annotations, ...turn.messages.flatMap((m) => m.annotations)]),
    ]);
    await ctx.rule('a completed task has at least one thread of turns of messages', () => {
      expectEqual(read.body.status, 'completed', 'status');
      expectTrue((read.body.threads?.[0]?.turns.length ?? 0) > 0, 'threads and turns');
    });
    // The client's models (scaleapi/scaleapi-python-client@b4111b2, scaleapi/api_client/v2/models/thread.py,
    // turn.py, message.py, message_content.py) require these fields: a thread or turn without them fails to load.
    await ctx.rule("every thread, turn and message has the fields the client's models require", () => {
      for (const [t, thread] of (read.body.threads ?? []).entries()) {
        expectShape(thread, { id: 'string', turns: 'array', annotations: 'array' }, `threads[${t}]`);
        for (const [u, turn] of (thread.turns ?? []).entries()) {
          expectShape(turn, { id: 'string', messages: 'array', annotations: 'array' }, `threads[${t}].turns[${u}]`);
          for (const [m, message] of (turn.messages ?? []).entries()) {
            const where = `threads[${t}].turns[${u}].messages[${m}]`;
            expectShape(
              message,
              { role: 'string', content: 'object', source_id: 'string', annotations: 'array' },
              where,
            );
            // MessageRole (message_role.py): system, user, assistant, function.
            expectOneOf(message.role, ['system', 'user', 'assistant', 'function'], `${where}.role`);
          }
        }
      }
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

/** Batches in each state of the v2 life cycle (docs.genai.scale.com: batch status), made through v2. */
async function batchesInEveryState(ctx: ContractContext, project: string) {
  const post = <Move extends BatchMove>(move: Move, batchId: string) =>
    ctx.api.post(`/v2/batch/${move}`, { batch_id: batchId });
  const staging = await v2Batch(ctx, project, { staging_batch: true });
  const inProgress = await v2Batch(ctx, project);
  const paused = await v2Batch(ctx, project);
  const completed = await v2Batch(ctx, project);
  const cancelled = await v2Batch(ctx, project);
  await setupStep('pause one, cancel one, complete the only task of one', async () => {
    expectStatus(await post('pause', paused.id), 200);
    expectStatus(await post('cancel', cancelled.id), 200);
    const task = await chatTask(ctx, { batch_id: completed.id });
    expectStatus(await ctx.api.post(`/_mock/tasks/${task.task_id}/complete`), 200);
    const read = await ctx.api.get(`/v2/batch?batch_id=${completed.id}`);
    expectEqual(read.body.status, 'completed', 'status of the batch whose task completed');
  });
  return { staging, in_progress: inProgress, paused, completed, cancelled };
}

/** What each move leaves from (the v2 docs' batch operations); every other state refuses it. */
const MOVES_FROM: Record<string, readonly string[]> = {
  finalize: ['staging'],
  pause: ['in_progress'],
  resume: ['paused'],
  cancel: ['staging', 'in_progress', 'paused'],
};

contract(
  'POST /v2/batch/{move} of a batch in a state the move does not leave is a 400, and changes nothing',
  async (ctx) => {
    const project = await chatProject(ctx);
    const batches = await batchesInEveryState(ctx, project.name);
    for (const [move, from] of Object.entries(MOVES_FROM)) {
      for (const [state, batch] of Object.entries(batches)) {
        if (from.includes(state)) continue;
        await ctx.rule(`${move} of a ${state} batch is a 400 and leaves it ${state}`, async () => {
          expectErrorBody(await ctx.api.post(`/v2/batch/${move}`, { batch_id: batch.id }), 400);
          expectEqual((await ctx.api.get(`/v2/batch?batch_id=${batch.id}`)).body.status, state, 'status after');
        });
      }
    }
  },
);

contract(
  "/v2/ reads and changes with another account's key: its tasks, batches, projects, annotations are 404s",
  async (ctx) => {
    const other = ctx.other();
    const project = await chatProject(ctx);
    const batch = await v2Batch(ctx, project.name);
    const task = await chatTask(ctx, { batch_id: batch.id });
    expectStatus(await ctx.api.post(`/_mock/tasks/${task.task_id}/complete`), 200);
    const read = await ctx.api.get(`/v2/task?task_id=${task.task_id}`);
    const annotation =
      read.body.threads?.[0]?.annotations?.[0]?.id ?? read.body.threads?.[0]?.turns?.[0]?.annotations?.[0]?.id;
    await ctx.rule('reads by id or name are 404s', async () => {
      expectErrorBody(await other.get(`/v2/task?task_id=${task.task_id}`), 404);
      expectErrorBody(await other.get(`/v2/batch?batch_id=${batch.id}`), 404);
      expectErrorBody(await other.get(`/v2/batch?batch_name=${byName(batch.name)}`), 404);
      expectErrorBody(await other.get(`/v2/project?project_id=${project.id}`), 404);
      expectErrorBody(await other.get(`/v2/project?project_name=${byName(project.name)}`), 404);
      expectTrue(typeof annotation === 'string', 'the completed task has an annotation to look for');
      expectErrorBody(await other.get(`/v2/annotation?annotation_id=${encodeURIComponent(annotation)}`), 404);
    });
    await ctx.rule('lists by its project or batch are 404s, and its own lists leave them out', async () => {
      expectErrorBody(await other.get(`/v2/tasks?batch_id=${batch.id}`), 404);
      expectErrorBody(await other.get(`/v2/batches?project_id=${project.id}`), 404);
      const projects = await other.get('/v2/projects');
      expectStatus(projects, 200);
      expectTrue(
        !(projects.body.projects ?? []).some((p: { id: string }) => p.id === project.id),
        "the other account's project list leaves the project out",
      );
    });
    await ctx.rule('changes are 404s and change nothing', async () => {
      expectErrorBody(await other.post('/v2/batch/pause', { batch_id: batch.id }), 404);
      expectErrorBody(await other.post('/v2/task/metadata', { task_id: task.task_id, metadata: { x: 1 } }), 404);
      expectEqual((await ctx.api.get(`/v2/task?task_id=${task.task_id}`)).body.metadata, {}, 'metadata kept');
    });
  },
);

// The official Python client declares limit as Field(ge=1, le=100) on every v2 list that pages
// (scaleapi/scaleapi-python-client@b4111b2, scaleapi/api_client/v2/api/v2_api.py).
contract('GET /v2/tasks, /v2/batches and /v2/delivery/tasks take limit 1 to 100 and refuse 0 and 101', async (ctx) => {
  const project = await chatProject(ctx);
  for (const path of [
    `/v2/tasks?project_id=${project.id}`,
    `/v2/batches?project_id=${project.id}`,
    `/v2/delivery/tasks?project_id=${project.id}`,
  ]) {
    await ctx.rule(`${path.split('?')[0]}: limit 1 and 100 answer pages, 0 and 101 a 400 naming limit`, async () => {
      expectStatus(await ctx.api.get(`${path}&limit=1`), 200);
      expectStatus(await ctx.api.get(`${path}&limit=100`), 200);
      expectErrorBody(await ctx.api.get(`${path}&limit=0`), 400, 'limit');
      expectErrorBody(await ctx.api.get(`${path}&limit=101`), 400, 'limit');
    });
  }
});

contract(
  'GET /v2/schema answers a registered schema by id; an unknown id is a 404, a malformed one a 400',
  async (ctx) => {
    await ctx.needControlPlane();
    const json = { type: 'object', properties: { verdict: { type: 'string' } } };
    const registered = await setupStep('register a schema through POST /_mock/v2/schemas', async () => {
      const res = await ctx.api.post('/_mock/v2/schemas', { name: ctx.unique('schema'), json });
      expectStatus(res, 200);
      return res.body.schema;
    });
    await ctx.rule('the schema reads back: id, name, the JSON schema as text, who and when', async () => {
      const res = await ctx.api.get(`/v2/schema?schema_id=${registered.id}`);
      expectStatus(res, 200);
      expectEqual(res.body.schema.id, registered.id, 'schema.id');
      expectEqual(res.body.schema.name, registered.name, 'schema.name');
      expectEqual(JSON.parse(res.body.schema.json), json, 'schema.json parsed');
      const schema: Record<string, unknown> = res.body.schema;
      for (const key of ['createdBy', 'createdAt', 'updatedBy', 'updatedAt']) {
        expectTrue(typeof schema[key] === 'string', `schema.${key} is a string`);
      }
    });
    await ctx.rule('an unknown id is a 404; a malformed one a 400 naming schema_id', async () => {
      expectErrorBody(await ctx.api.get('/v2/schema?schema_id=000000000000000000000000'), 404);
      expectErrorBody(await ctx.api.get('/v2/schema?schema_id=not-an-id'), 400, 'schema_id');
    });
  },
);
