import type { AnswerOf } from '../kit/answers.js';
import {
  type ContractContext,
  contract,
  eventually,
  expectEqual,
  expectErrorBody,
  expectStatus,
  setupStep,
} from '../kit/contract.js';
import { holdTasksPending } from '../kit/control.js';
import { createTaskRequest } from '../kit/tasks.js';

/** Batches: creation, reads, paging, and the life cycle driven by their tasks. */

async function projectWithBatch(ctx: ContractContext, projectExtra: Record<string, unknown> = {}) {
  const project = ctx.unique('project');
  expectStatus(
    await ctx.api.post('/v1/projects', {
      type: 'imageannotation',
      name: project,
      params: { geometries: { box: { objects_to_annotate: ['car'] } } },
      ...projectExtra,
    }),
    200,
  );
  const name = ctx.unique('batch');
  const res = await ctx.api.post('/v1/batches', { project, name, callback: 'batches@example.com' });
  expectStatus(res, 200);
  return { project, batch: res.body };
}

/** A batch's route; `as const` keeps the template, so its answer is typed by the route it fills. */
const batchPath = <Suffix extends string>(name: string, suffix: Suffix) =>
  `/v1/batches/${encodeURIComponent(name)}${suffix}` as const;

contract('POST /v1/batches on a plain project answers an in_progress batch with its fields', async (ctx) => {
  const { project, batch } = await projectWithBatch(ctx);
  await ctx.rule('the new batch names its project, is in_progress and has empty metadata', () => {
    expectEqual(batch.project, project, 'project');
    expectEqual(batch.status, 'in_progress', 'status');
    expectEqual(batch.metadata, {}, 'metadata');
  });
  await ctx.rule('GET /v1/batches/{name} reads the batch back', async () => {
    const read = await ctx.api.get(batchPath(batch.name, ''));
    expectStatus(read, 200);
    expectEqual(read.body.name, batch.name, 'name read back');
  });
});

contract('POST /v1/batches on a rapid project starts in staging; finalize moves it to in_progress', async (ctx) => {
  const { batch } = await projectWithBatch(ctx, { rapid: true });
  await ctx.rule('a new rapid batch is in staging', () =>
    expectEqual(batch.status, 'staging', 'status of a new rapid batch'),
  );
  await ctx.rule('finalize moves it to in_progress', async () => {
    const finalized = await ctx.api.post(batchPath(batch.name, '/finalize'));
    expectStatus(finalized, 200);
    expectEqual(finalized.body.status, 'in_progress', 'status after finalize');
  });
});

contract('POST /v1/batches/{name}/finalize on a plain project batch answers 200 without change', async (ctx) => {
  const { batch } = await projectWithBatch(ctx);
  const res = await ctx.api.post(batchPath(batch.name, '/finalize'));
  expectStatus(res, 200);
  expectEqual(res.body.status, 'in_progress', 'status');
});

contract('POST /v1/batches with a used name answers 409; with an unknown project 404', async (ctx) => {
  const { project, batch } = await projectWithBatch(ctx);
  await ctx.rule('a used batch name answers 409', async () =>
    expectErrorBody(await ctx.api.post('/v1/batches', { project, name: batch.name }), 409),
  );
  await ctx.rule('a batch of an unknown project answers 404', async () =>
    expectErrorBody(
      await ctx.api.post('/v1/batches', { project: ctx.unique('absent'), name: ctx.unique('batch') }),
      404,
    ),
  );
  await ctx.rule('an unknown batch answers 404', async () =>
    expectErrorBody(await ctx.api.get(batchPath(ctx.unique('absent'), '')), 404),
  );
});

contract('GET /v1/batches answers {docs, totalDocs, total, limit, offset, has_more}, newest first', async (ctx) => {
  const { project, batch } = await projectWithBatch(ctx);
  const second = await ctx.api.post('/v1/batches', { project, name: ctx.unique('batch') });
  expectStatus(second, 200);
  // Polled up to --wait: a real service's lists may lag behind its writes.
  const res = await eventually(async () => {
    const first = await ctx.api.get('/v1/batches', { query: { project, limit: 1, offset: 0 } });
    expectStatus(first, 200);
    expectEqual(first.body.totalDocs, 2, 'totalDocs');
    return first;
  });
  await ctx.rule('total counts every batch of the project', () => expectEqual(res.body.total, 2, 'total'));
  await ctx.rule('the first page holds the newest batch and has_more', () => {
    expectEqual(res.body.has_more, true, 'has_more');
    expectEqual(
      res.body.docs.map((b: { name: string }) => b.name),
      [second.body.name],
      'first page',
    );
  });
  await ctx.rule('the last page holds the oldest batch and no has_more', async () => {
    const next = await ctx.api.get('/v1/batches', { query: { project, limit: 1, offset: 1 } });
    expectEqual(
      next.body.docs.map((b: { name: string }) => b.name),
      [batch.name],
      'second page',
    );
    expectEqual(next.body.has_more, false, 'has_more on the last page');
  });
});

// Scale's pipeline starter kit pages batches so (scaleapi/sail@6679edb, task_download/task_download.py): offset
// (nextPage - 1) * limit until hasNextPage is false, printing `page n/totalPages`.
type BatchPage = AnswerOf<'get', '/v1/batches'>;

contract('GET /v1/batches pages by offset to the last page with hasNextPage, nextPage and totalPages', async (ctx) => {
  const { project } = await projectWithBatch(ctx);
  for (let i = 0; i < 2; i += 1)
    expectStatus(await ctx.api.post('/v1/batches', { project, name: ctx.unique('batch') }), 200);
  await eventually(async () => {
    const all = await ctx.api.get('/v1/batches', { query: { project } });
    expectEqual(all.body.totalDocs, 3, 'totalDocs');
  });
  const pages: BatchPage[] = [];
  let [hasNextPage, nextPage] = [true, 1];
  while (hasNextPage && pages.length < 5) {
    const res = await ctx.api.get('/v1/batches', { query: { project, limit: 2, offset: (nextPage - 1) * 2 } });
    expectStatus(res, 200);
    pages.push(res.body);
    [hasNextPage, nextPage] = [res.body.hasNextPage, res.body.nextPage ?? nextPage];
  }
  await ctx.rule('the loop ends after two pages holding the three batches once each', () => {
    expectEqual(pages.length, 2, 'pages read');
    expectEqual(new Set(pages.flatMap((p) => p.docs.map((b) => b.name))).size, 3, 'batches read');
  });
  await ctx.rule('each page says where it stands', () => {
    const fields = (p: BatchPage) => [
      p.page,
      p.totalPages,
      p.hasNextPage,
      p.nextPage,
      p.hasPrevPage,
      p.prevPage,
      p.pagingCounter,
    ];
    expectEqual(
      pages.map(fields),
      [
        [1, 2, true, 2, false, null, 1],
        [2, 2, false, null, true, 1, 3],
      ],
      'page, totalPages, hasNextPage, nextPage, hasPrevPage, prevPage, pagingCounter',
    );
  });
});

contract('POST /v1/batches/{name}/prioritize answers {result: success}; out of 10..30 is a 400', async (ctx) => {
  const { batch } = await projectWithBatch(ctx);
  await ctx.rule('prioritize within 10..30 answers {result: success}', async () => {
    const ok = await ctx.api.post(batchPath(batch.name, '/prioritize'), { priority: 30 });
    expectStatus(ok, 200);
    expectEqual(ok.body, { result: 'success' }, 'body');
  });
  await ctx.rule('prioritize outside 10..30 answers 400 naming priority', async () =>
    expectErrorBody(await ctx.api.post(batchPath(batch.name, '/prioritize'), { priority: 31 }), 400, 'priority'),
  );
});

contract('POST /v1/batches/{name}/setMetadata replaces the metadata', async (ctx) => {
  const { batch } = await projectWithBatch(ctx);
  const res = await ctx.api.post(batchPath(batch.name, '/setMetadata'), { lot: 7 });
  expectStatus(res, 200);
  expectEqual(res.body.metadata, { lot: 7 }, 'metadata');
});

contract('a batch completes once its tasks are finished, with correct status counts', async (ctx) => {
  await ctx.needControlPlane();
  await holdTasksPending(ctx);
  const { project, batch } = await projectWithBatch(ctx);
  const ids: string[] = [];
  for (let i = 0; i < 4; i += 1) {
    const res = await createTaskRequest(ctx.api, { batch: batch.name, geometries: undefined });
    expectStatus(res, 200);
    if (i === 0)
      await ctx.rule('a task created in a batch belongs to its project', () =>
        expectEqual(res.body.project, project, 'project implied by the batch'),
      );
    ids.push(res.body.task_id);
  }
  const counts = async () => {
    const res = await ctx.api.get(batchPath(batch.name, '/status'));
    expectStatus(res, 200);
    return res.body;
  };
  const before = await counts();
  await ctx.rule('a new batch of pending tasks is in_progress and counts them pending', () =>
    expectEqual(before, { status: 'in_progress', pending: 4, completed: 0, error: 0, canceled: 0 }, 'status before'),
  );
  await setupStep('finish three of the tasks (complete, cancel, fail)', async () => {
    expectStatus(await ctx.api.post(`/_mock/tasks/${ids[0]}/complete`), 200);
    expectStatus(await ctx.api.post(`/v1/task/${ids[1]}/cancel`), 200);
    expectStatus(await ctx.api.post(`/_mock/tasks/${ids[2]}/fail`, { error: 'attachment could not be read' }), 200);
  });
  const partial = await eventually(async () => {
    const body = await counts();
    expectEqual(body.pending, 1, 'pending count');
    return body;
  }).catch(() => counts());
  for (const [status, expected] of [
    ['pending', 1],
    ['completed', 1],
    ['canceled', 1],
    ['error', 1],
  ] as const)
    await ctx.rule(`the status counts ${status} tasks`, () =>
      expectEqual(partial[status], expected, `${status} count`),
    );
  await ctx.rule('a batch with a pending task stays in_progress', () =>
    expectEqual(partial.status, 'in_progress', 'batch status'),
  );
  await setupStep('complete the last task', async () =>
    expectStatus(await ctx.api.post(`/_mock/tasks/${ids[3]}/complete`), 200),
  );
  await ctx.rule('a batch whose tasks are all finished is completed', () =>
    eventually(async () => {
      const body = await counts();
      expectEqual(body, { status: 'completed', pending: 0, completed: 2, error: 1, canceled: 1 }, 'status after');
    }),
  );
});

contract('a completed batch takes a new task and is in progress again until that task is finished', async (ctx) => {
  await ctx.needControlPlane();
  await holdTasksPending(ctx);
  const { batch } = await projectWithBatch(ctx);
  const first = await createTaskRequest(ctx.api, { batch: batch.name, geometries: undefined });
  expectStatus(await ctx.api.post(`/_mock/tasks/${first.body.task_id}/complete`), 200);
  await batchReaches(ctx, batch.name, 'completed', 'batch status after its only task completed');
  const joined = await createTaskRequest(ctx.api, { batch: batch.name, geometries: undefined });
  expectStatus(joined, 200);
  await ctx.rule('a new task reopens the completed batch', async () =>
    expectEqual(
      (await ctx.api.get(batchPath(batch.name, '/status'))).body,
      { status: 'in_progress', pending: 1, completed: 1, error: 0, canceled: 0 },
      'status after a task joined',
    ),
  );
  expectStatus(await ctx.api.post(`/_mock/tasks/${joined.body.task_id}/complete`), 200);
  await ctx.rule('the batch completes again once the new task is finished', () =>
    batchReaches(ctx, batch.name, 'completed', 'batch status once the new task completed'),
  );
});

/** Batch progress may follow task changes asynchronously on another implementation: poll. */
const batchReaches = (ctx: ContractContext, name: string, status: string, what: string) =>
  eventually(async () => expectEqual((await ctx.api.get(batchPath(name, '/status'))).body.status, status, what));
