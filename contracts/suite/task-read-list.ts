import {
  type ContractContext,
  contract,
  eventually,
  expectEqual,
  expectErrorBody,
  expectOneOf,
  expectStatus,
  expectTrue,
  present,
  setupStep,
} from '../kit/contract.js';
import { createPendingTask, holdTasksPending } from '../kit/control.js';
import { createTask, expectListShape, fullDocsOf, getTask, idsOf, listTasks } from '../kit/tasks.js';

/** GET /v1/task/{id} and GET /v1/tasks: shapes, order, paging and the list's own parameters. */

/** Creates `count` tasks sharing a fresh tag; returns the tag and the tasks in creation order. */
async function taggedTasks(ctx: ContractContext, count: number, prefix: string) {
  const tag = ctx.unique(prefix);
  const tasks = [];
  for (let i = 0; i < count; i += 1) tasks.push(await createTask(ctx.api, { tags: [tag], metadata: { n: i } }));
  // Lists may lag behind writes on a real service: wait (up to --wait) until all of them are listed.
  await setupStep(`list the ${count} new tasks`, () =>
    eventually(async () => expectEqual((await listTasks(ctx.api, { tags: tag })).docs.length, count, 'tasks listed')),
  );
  return { tag, tasks, first: present(tasks[0], 'the first task') };
}

contract('GET /v1/task/{id} answers the task as the creation returned it', async (ctx) => {
  await holdTasksPending(ctx);
  const created = await createPendingTask(ctx, { metadata: { ref: 'read-back' } });
  // Nothing happened to the task in between, so both objects agree field by field.
  expectEqual(await getTask(ctx.api, created.task_id), created, 'task read back');
});

contract(
  'GET /v1/tasks answers {docs, total, limit, offset, has_more, next_token} with limit 100 by default',
  async (ctx) => {
    const { tag, first } = await taggedTasks(ctx, 1, 'shape');
    const list = await listTasks(ctx.api, { tags: tag });
    await ctx.rule('the list has docs, total, limit, offset, has_more and next_token', () =>
      expectListShape(list, 'GET /v1/tasks'),
    );
    await ctx.rule('limit is 100 by default', () => expectEqual(list.limit, 100, 'default limit'));
    await ctx.rule('the first page has offset 0', () => expectEqual(list.offset, 0, 'offset of the first page'));
    await ctx.rule('total counts the matching tasks', () => expectEqual(list.total, 1, 'total'));
    await ctx.rule('the last page has has_more false and no next_token', () => {
      expectEqual(list.has_more, false, 'has_more');
      expectOneOf(list.next_token ?? null, [null, ''], 'next_token of the last page');
    });
    await ctx.rule('docs are full task documents by default', () => {
      expectEqual(idsOf(list), [first.task_id], 'docs');
      expectEqual(fullDocsOf(list, 'GET /v1/tasks')[0]?.type, 'imageannotation', 'docs[0].type (full by default)');
    });
  },
);

contract('GET /v1/tasks lists newest first', async (ctx) => {
  const { tag, tasks } = await taggedTasks(ctx, 3, 'order');
  const list = await listTasks(ctx.api, { tags: tag });
  expectEqual(idsOf(list), tasks.map((t) => t.task_id).reverse(), 'task ids, newest first');
  const created = fullDocsOf(list, 'GET /v1/tasks').map((doc) => doc.created_at);
  for (const [i, at] of created.entries()) {
    const before = created[i - 1] ?? at;
    expectTrue(before >= at, `created_at must not increase along the list: ${before} < ${at}`);
  }
});

contract('GET /v1/tasks pages with next_token until has_more is false, without duplicates', async (ctx) => {
  const { tag, tasks } = await taggedTasks(ctx, 5, 'paging');
  const seen: string[] = [];
  const pages: { size: number; has_more: boolean }[] = [];
  let token: string | undefined;
  do {
    // The official clients resend every filter together with next_token.
    const page = await listTasks(ctx.api, { tags: tag, limit: 2, next_token: token });
    expectEqual(page.total, 5, `total on page ${pages.length + 1}`);
    expectEqual(page.limit, 2, `limit on page ${pages.length + 1}`);
    pages.push({ size: page.docs.length, has_more: page.has_more });
    seen.push(...idsOf(page));
    token = page.has_more ? (page.next_token ?? undefined) : undefined;
    expectTrue(pages.length <= 5, 'paging did not end after 5 pages of 2 for 5 tasks');
  } while (token);
  expectEqual(
    pages,
    [
      { size: 2, has_more: true },
      { size: 2, has_more: true },
      { size: 1, has_more: false },
    ],
    'pages',
  );
  expectEqual(seen, tasks.map((t) => t.task_id).reverse(), 'task ids over all pages, newest first');
});

contract('GET /v1/tasks answers has_more false on a last page that is exactly full', async (ctx) => {
  const { tag, tasks } = await taggedTasks(ctx, 4, 'boundary');
  await ctx.rule('a page holding every remaining task has has_more false', async () => {
    const page = await listTasks(ctx.api, { tags: tag, limit: 4 });
    expectEqual([page.docs.length, page.has_more], [4, false], '[docs, has_more] with limit 4 for 4 tasks');
  });
  await ctx.rule('the second of two full pages has has_more false', async () => {
    const first = await listTasks(ctx.api, { tags: tag, limit: 2 });
    expectEqual([first.docs.length, first.has_more], [2, true], '[docs, has_more] of page 1 of 2');
    const second = await listTasks(ctx.api, { tags: tag, limit: 2, next_token: first.next_token });
    expectEqual([second.docs.length, second.has_more], [2, false], '[docs, has_more] of page 2 of 2');
    expectEqual(
      [...idsOf(first), ...idsOf(second)],
      tasks.map((t) => t.task_id).reverse(),
      'task ids over both pages, newest first',
    );
  });
});

contract('GET /v1/tasks with limit 0 or 101 or not a number answers 400 naming limit', async (ctx) => {
  for (const limit of ['0', '101', 'ten']) {
    expectErrorBody(await ctx.api.get('/v1/tasks', { query: { limit } }), 400, 'limit');
  }
  expectStatus(await ctx.api.get('/v1/tasks', { query: { limit: 100 } }), 200);
  expectStatus(await ctx.api.get('/v1/tasks', { query: { limit: 1 } }), 200);
});

contract('GET /v1/tasks with a next_token the server never issued answers 400 naming next_token', async (ctx) => {
  expectErrorBody(await ctx.api.get('/v1/tasks', { query: { next_token: 'not-a-token!' } }), 400, 'next_token');
});

contract('GET /v1/tasks with limited_response=True returns only task_id, status, metadata and project', async (ctx) => {
  const { tag, first } = await taggedTasks(ctx, 1, 'limited');
  // The Python client sends booleans as True/False; JavaScript clients as true/false.
  for (const value of ['True', 'true']) {
    const list = await listTasks(ctx.api, { tags: tag, limited_response: value });
    expectEqual(list.docs.length, 1, `docs with limited_response=${value}`);
    const doc = present(list.docs[0], `the doc with limited_response=${value}`);
    for (const key of Object.keys(doc))
      expectOneOf(key, ['task_id', 'status', 'metadata', 'project'], `key of a limited_response=${value} doc`);
    expectEqual(doc.task_id, first.task_id, 'task_id');
    expectOneOf(doc.status, ['pending', 'completed'], 'status');
    expectEqual(doc.metadata, { n: 0 }, 'metadata');
  }
  for (const value of ['False', 'false']) {
    const list = await listTasks(ctx.api, { tags: tag, limited_response: value });
    expectEqual(
      fullDocsOf(list, `GET /v1/tasks?limited_response=${value}`)[0]?.params.attachment,
      first.params.attachment,
      `params.attachment with limited_response=${value}`,
    );
  }
  // The real service's booleans are true/false and True/False; refusing anything else is labelmock's choice.
  await ctx.rule(
    'limited_response=maybe answers 400 naming limited_response',
    async () =>
      expectErrorBody(
        await ctx.api.get('/v1/tasks', { query: { tags: tag, limited_response: 'maybe' } }),
        400,
        'limited_response',
      ),
    'labelmock',
  );
});
