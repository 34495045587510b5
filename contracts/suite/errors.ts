import {
  contract,
  expectEqual,
  expectErrorBody,
  expectErrorShape,
  expectMentions,
  expectStatus,
  expectStatusIn,
  expectTrue,
} from '../kit/contract.js';
import { createPendingTask, holdTasksPending } from '../kit/control.js';
import { createTask, imageTaskBody, listTasks, randomTaskId, TASK_NOT_FOUND } from '../kit/tasks.js';

/** Error statuses and the one error body shape `{status_code, error}`. */

const SAME_URL = 'https://example.com/contracts/same.jpg';

/**
 * [what is wrong, body overrides, word the message must contain]. Each is a 400 naming the field.
 * Bodies carry a fresh tag (`TAG`), so the contract can prove the rejected request created no task.
 */
const TAG = '{tag}';
const INVALID_CREATIONS: [string, Record<string, unknown>, string][] = [
  ['without attachment', { attachment: undefined }, 'attachment'],
  ['with an attachment that is not a URL', { attachment: 'street.jpg' }, 'attachment'],
  ['without geometries', { geometries: undefined }, 'geometries'],
  ['with geometries naming no geometry', { geometries: {} }, 'geometries'],
  [
    'with polygon max_vertices below min_vertices',
    { geometries: { polygon: { objects_to_annotate: ['lane'], min_vertices: 5, max_vertices: 3 } } },
    'max_vertices',
  ],
  [
    'with box integer_pixels and can_rotate',
    { geometries: { box: { objects_to_annotate: ['car'], integer_pixels: true, can_rotate: true } } },
    'integer_pixels',
  ],
  [
    'with a context_attachment equal to the attachment',
    { attachment: SAME_URL, context_attachment: [{ attachment: SAME_URL }] },
    'context_attachment',
  ],
  [
    'with a label object without choice',
    { geometries: { box: { objects_to_annotate: ['car', { subchoices: ['truck', 'bus'] }] } } },
    'objects_to_annotate',
  ],
  ['with six tags', { tags: [TAG, 'b', 'c', 'd', 'e', 'f'] }, 'tags'],
  ['with metadata over 10 KB', { metadata: { blob: 'x'.repeat(11 * 1024) } }, 'metadata'],
  ['with priority 15', { priority: 15 }, 'priority'],
  ['with callback_url "not a url"', { callback_url: 'not a url' }, 'callback_url'],
];

for (const [what, overrides, field] of INVALID_CREATIONS) {
  contract(`POST /v1/task/imageannotation ${what} answers 400 naming ${field}`, async (ctx) => {
    const tag = ctx.unique('invalid');
    const tags = ((overrides.tags as string[] | undefined) ?? [TAG]).map((t) => (t === TAG ? tag : t));
    const body = imageTaskBody({ ...overrides, tags });
    const res = await ctx.api.post('/v1/task/imageannotation', body);
    expectErrorBody(res, 400, field);
    expectEqual((await listTasks(ctx.api, { tags: tag })).total, 0, 'tasks created by the rejected request');
  });
}

contract('POST /v1/task/imageannotation with malformed JSON answers 400 with an error body', async (ctx) => {
  const res = await ctx.api.post('/v1/task/imageannotation', undefined, {
    rawBody: '{"attachment": "https://example.com/a.jpg",',
  });
  expectErrorBody(res, 400);
});

contract('POST /v1/task/imageannotation with a text/plain body that is not JSON answers 400 or 415', async (ctx) => {
  const res = await ctx.api.post('/v1/task/imageannotation', undefined, {
    rawBody: 'attachment=a.jpg',
    headers: { 'Content-Type': 'text/plain' },
  });
  expectStatusIn(res, [400, 415], 'a client error for a non-JSON body');
  expectErrorShape(res);
});

contract('POST /v1/task/imageannotation with a body over 5 MB answers 400 or 413, never 5xx', async (ctx) => {
  const res = await ctx.api.post(
    '/v1/task/imageannotation',
    imageTaskBody({ metadata: { blob: 'x'.repeat(6 * 1024 * 1024) } }),
  );
  expectStatusIn(res, [400, 413], 'a client error for an oversize body');
  expectErrorShape(res);
});

contract('POST /v1/task/{type} with an unknown task type answers 400, 402 or 404 with an error body', async (ctx) => {
  const res = await ctx.api.post(`/v1/task/${ctx.unique('nosuchtype')}`, imageTaskBody());
  expectStatusIn(res, [400, 402, 404], 'a client error for an unknown task type');
  expectErrorShape(res);
});

contract('GET /v1/task/{id} with an unknown id answers 404 "Task with that ID not found."', async (ctx) => {
  const res = await ctx.api.get(`/v1/task/${randomTaskId()}`);
  expectErrorBody(res, 404);
  expectEqual(res.body.error, TASK_NOT_FOUND, `${res.request} error`);
});

contract(
  'POST, PUT and DELETE /v1/task/{id}/<action> with an unknown id answer 404 "Task with that ID not found."',
  async (ctx) => {
    const id = randomTaskId();
    const results = [
      await ctx.api.post(`/v1/task/${id}/cancel`),
      await ctx.api.post(`/v1/task/${id}/setMetadata`, { a: 1 }),
      await ctx.api.post(`/v1/task/${id}/unique_id`, { unique_id: ctx.unique('uid') }),
      await ctx.api.delete(`/v1/task/${id}/unique_id`),
      await ctx.api.post(`/v1/task/${id}/tags`, ['a']),
      await ctx.api.put(`/v1/task/${id}/tags`, ['a']),
      await ctx.api.delete(`/v1/task/${id}/tags`, ['a']),
    ];
    for (const res of results)
      await ctx.rule(`${res.request.replace(id, '{id}')} answers 404 "${TASK_NOT_FOUND}"`, () => {
        expectErrorBody(res, 404);
        expectEqual(res.body.error, TASK_NOT_FOUND, `${res.request} error`);
      });
  },
);

contract('GET /v1/<unknown route> answers 404 with an error body', async (ctx) => {
  const res = await ctx.api.get(`/v1/${ctx.unique('no_such_route')}`);
  expectErrorBody(res, 404);
});

contract('POST /v1/tasks and DELETE /v1/task/{id} answer 405 with an error body and an Allow header', async (ctx) => {
  const task = await createTask(ctx.api);
  for (const res of [await ctx.api.post('/v1/tasks', {}), await ctx.api.delete(`/v1/task/${task.task_id}`)]) {
    expectErrorBody(res, 405);
    expectMentions(res.headers.get('allow'), 'GET', `${res.request} Allow header`);
  }
});

contract(
  'POST /v1/task/{id}/cancel without a body but with Content-Type: application/json is not a 400',
  async (ctx) => {
    await holdTasksPending(ctx);
    const task = await createPendingTask(ctx);
    // The official clients send this header on every request, body or not.
    const res = await ctx.api.post(`/v1/task/${task.task_id}/cancel`, undefined, {
      headers: { 'Content-Type': 'application/json' },
    });
    expectStatus(res, 200);
    expectEqual(res.body.status, 'canceled', `${res.request} status`);
  },
);

contract('GET /v1/tasks with Content-Type: application/json and no body answers 200', async (ctx) => {
  const res = await ctx.api.get('/v1/tasks', { query: { limit: 1 }, headers: { 'Content-Type': 'application/json' } });
  expectStatus(res, 200);
  expectTrue(Array.isArray(res.body.docs), `${res.request}: expected docs`);
});
