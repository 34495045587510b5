import { contract, expectEqual, expectNoKey, expectNotEqual, expectStatus, expectTrue } from '../kit/contract.js';
import { holdTasksPending } from '../kit/control.js';
import { createTask, expectTaskShape, imageTaskBody, isTestKey } from '../kit/tasks.js';

/** POST /v1/task/imageannotation: the success shape of a new task. */

contract('POST /v1/task/imageannotation answers 200 with a pending task of the Task table shape', async (ctx) => {
  await holdTasksPending(ctx);
  const body = imageTaskBody();
  const res = await ctx.api.post('/v1/task/imageannotation', body);
  // Every success is 200, creates included: the official Python client treats 201 as an error.
  expectStatus(res, 200);
  const task = res.body;
  await ctx.rule('the task has every field of the Task table with its type', () => expectTaskShape(task, res.request));
  await ctx.rule('a new task is pending, of the type of its route', () => {
    expectEqual(task.type, 'imageannotation', 'type');
    expectEqual(task.status, 'pending', 'status');
  });
  await ctx.rule('the task keeps its parameters in params and its instruction', () => {
    expectEqual(task.params?.attachment, body.attachment, 'params.attachment');
    expectEqual(task.params?.geometries, body.geometries, 'params.geometries');
    expectEqual(task.instruction, body.instruction, 'instruction');
  });
  await ctx.rule('a new task has defaults: metadata {}, no audits, no callback yet, no project version', () => {
    expectEqual(task.callback_succeeded, false, 'callback_succeeded of a new task');
    expectEqual(task.metadata, {}, 'default metadata');
    expectEqual(task.audits, [], 'default audits');
    expectEqual(task.project_param_version, null, 'project_param_version without a project');
  });
  // The real service leaves unset optional keys out rather than sending null or [].
  await ctx.rule('a new task has no unique_id, tags, completed_at or response key', () => {
    for (const key of ['unique_id', 'tags', 'completed_at', 'response']) expectNoKey(task, key, 'new task');
  });
});

contract(
  'POST /v1/task/imageannotation answers labelmock extras: attachment_type, no times_redone, priority echoed',
  async (ctx) => {
    await holdTasksPending(ctx);
    const res = await ctx.api.post('/v1/task/imageannotation', imageTaskBody({ priority: 20 }));
    expectStatus(res, 200);
    expectEqual(res.body.params.attachment_type, 'image', 'params.attachment_type');
    expectEqual(res.body.created_at, res.body.updated_at, 'updated_at of a new task');
    expectNoKey(res.body, 'times_redone', 'new task');
    expectEqual(res.body.priority, 20, 'priority');
  },
);

contract('POST /v1/task/imageannotation accepts annotation_attributes with conditions', async (ctx) => {
  const annotation_attributes = {
    occluded: { type: 'category', description: 'Is it occluded?', choices: ['yes', 'no'] },
    occlusion_share: {
      description: 'How much is hidden?',
      choices: ['some', 'most'],
      conditions: { label_condition: { label: 'car' }, attribute_conditions: { occluded: 'yes' } },
    },
  };
  const res = await ctx.api.post('/v1/task/imageannotation', imageTaskBody({ annotation_attributes }));
  expectStatus(res, 200);
});

contract('POST /v1/task/imageannotation gives every task a new task_id', async (ctx) => {
  const body = imageTaskBody();
  const first = await createTask(ctx.api, body);
  const second = await createTask(ctx.api, body);
  expectNotEqual(second.task_id, first.task_id, 'task_id of two creations with the same body');
});

contract('POST /v1/task/imageannotation keeps the common parameters on the task', async (ctx) => {
  const uniqueId = ctx.unique('uid');
  const common = {
    instruction: 'Only **cars** please.',
    callback_url: 'http://127.0.0.1:9/contracts/callback',
    metadata: { order: 17, nested: { ok: true } },
    tags: ['street', 'night'],
    unique_id: uniqueId,
  };
  const res = await ctx.api.post('/v1/task/imageannotation', imageTaskBody({ ...common, priority: 30 }));
  expectStatus(res, 200);
  for (const [key, value] of Object.entries(common))
    await ctx.rule(`the task keeps ${key}`, () => expectEqual(res.body[key], value, key));
});

contract('POST /v1/task/imageannotation accepts an e-mail address as callback_url', async (ctx) => {
  const task = await createTask(ctx.api, { callback_url: 'labeling-results@example.com' });
  expectEqual(task.callback_url, 'labeling-results@example.com', 'callback_url');
});

contract(
  'POST /v1/task/imageannotation accepts label objects with subchoices, display and instance_label',
  async (ctx) => {
    const geometries = {
      box: {
        objects_to_annotate: [{ choice: 'animal', subchoices: ['cat', { choice: 'dog', display: 'Dog (any breed)' }] }],
      },
      point: { objects_to_annotate: [{ choice: 'eye', instance_label: true }] },
    };
    const task = await createTask(ctx.api, { geometries });
    expectEqual(task.params.geometries, geometries, 'params.geometries');
  },
);

contract('POST /v1/task/imageannotation with a test key marks the task is_test true', async (ctx) => {
  if (!isTestKey(ctx.target.apiKey)) ctx.skip('apiKey is not recognizably a test key (test_... or ...|test)');
  const task = await createTask(ctx.api);
  expectTrue(task.is_test === true, `is_test: expected true for a test key, got ${JSON.stringify(task.is_test)}`);
});

contract('POST /v1/task/imageannotation takes callback as an alias of callback_url', async (ctx) => {
  const task = await createTask(ctx.api, { callback: 'http://127.0.0.1:9/contracts/alias' });
  expectEqual(task.callback_url, 'http://127.0.0.1:9/contracts/alias', 'callback_url');
});

contract('POST /v1/task/imageannotation accepts metadata of 9 KB and priorities 10, 20 and 30', async (ctx) => {
  const metadata = { blob: 'x'.repeat(9 * 1024) };
  expectEqual((await createTask(ctx.api, { metadata })).metadata, metadata, 'metadata');
  for (const priority of [10, 20, 30])
    expectStatus(await ctx.api.post('/v1/task/imageannotation', imageTaskBody({ priority })), 200);
});
