import {
  asObject,
  type ContractContext,
  contract,
  expectEqual,
  expectErrorBody,
  expectMatch,
  expectStatus,
  expectTrue,
  expectType,
} from '../kit/contract.js';
import { imageTaskBody } from '../kit/tasks.js';
import { RECORDED_CREATIONS } from './recorded-creations.js';

/**
 * What the real service did where the interface is silent, replayed from public evidence (docs/fidelity.md lists
 * each piece): the Ruby clients' VCR recordings, the 2018 docs' curl examples, what third-party tools send.
 */

/** A form-encoded POST, as `curl -d key=value` sends one. */
const postForm = <Path extends string>(ctx: ContractContext, path: Path, form: URLSearchParams) =>
  ctx.api.post(path, undefined, {
    rawBody: form.toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });

for (const recorded of RECORDED_CREATIONS) {
  const type = recorded.path.replace('task/', '');
  const name = `POST /v1/task/${type} as the Ruby client sent it answers the params the real service recorded`;
  contract(name, async (ctx) => {
    const res = await ctx.api.post(`/v1/${recorded.path}`, recorded.request);
    expectStatus(res, 200);
    // A path only known at run time (the recording's): the answer is read as the task the route creates.
    const task = asObject(res.body, res.request);
    await ctx.rule('params: what was sent plus the defaults the server filled', () =>
      expectEqual(task.params, recorded.params, `${res.request} params`),
    );
    await ctx.rule('instruction: the one sent, or the default the server filled', () =>
      expectEqual(task.instruction, recorded.instruction, `${res.request} instruction`),
    );
    await ctx.rule('processed_attachments: an empty list', () =>
      expectEqual(task.processed_attachments, [], `${res.request} processed_attachments`),
    );
  });
}

// scaleapi/scaleapi-ruby@e6354d9, spec/cassettes/task_list_1.yml: every filter the client knows, unset ones bare.
contract('GET /v1/tasks with the Ruby client bare filter keys reads them as absent, paged by offset', async (ctx) => {
  const res = await ctx.api.get('/v1/tasks?callback_url&end_time&limit=2&offset=0&start_time&status&type');
  expectStatus(res, 200);
  expectType(res.body.docs, 'array', `${res.request} docs`);
  expectEqual(res.body.limit, 2, `${res.request} limit`);
  expectTrue(res.body.docs.length <= 2, `${res.request}: at most 2 docs, got ${res.body.docs.length}`);
});

// wikiti/scaleapi-ruby@aece53c, test/fixtures/vcr_cassettes/tasks.yml (2016): the legacy creation path.
contract('POST /v1/task/categorize (the legacy path) creates a categorization task', async (ctx) => {
  const res = await ctx.api.post('/v1/task/categorize', {
    callback_url: 'http://www.example.com/callback',
    instruction: 'Is this company public or private?',
    attachment_type: 'website',
    attachment: 'http://www.google.com/',
    categories: ['public', 'private'],
    allow_multiple: false,
  });
  expectStatus(res, 200);
  expectEqual(res.body.type, 'categorization', `${res.request} type`);
  expectEqual(res.body.params.categories, ['public', 'private'], `${res.request} params.categories`);
});

// alexandrwang/slate@3107e50, source/includes/_categorization.mdown: the docs' curl example until 2018.
contract('POST /v1/task/categorization form-encoded as the 2018 docs curl example sends it', async (ctx) => {
  const form = new URLSearchParams([
    ['callback_url', 'http://www.example.com/callback'],
    ['instruction', 'Is this company public or private?'],
    ['attachment_type', 'website'],
    ['attachment', 'http://www.google.com/'],
    ['categories', 'public'],
    ['categories', 'private'],
    ['allow_multiple', 'true'],
  ]);
  const res = await postForm(ctx, '/v1/task/categorization', form);
  expectStatus(res, 200);
  expectEqual(res.body.params.categories, ['public', 'private'], `${res.request} params.categories`);
  expectEqual(res.body.params.allow_multiple, true, `${res.request} params.allow_multiple (the text "true")`);
});

contract('POST /v1/task/imageannotation reads nested form keys (fields[title]=) as objects', async (ctx) => {
  const body = imageTaskBody();
  const form = new URLSearchParams([
    ['attachment', String(body.attachment)],
    ['geometries[box][objects_to_annotate][]', 'car'],
    ['geometries[box][min_width]', '5'],
    ['metadata[order]', 'A-17'],
  ]);
  const res = await postForm(ctx, '/v1/task/imageannotation', form);
  expectStatus(res, 200);
  expectEqual(
    res.body.params.geometries,
    { box: { objects_to_annotate: ['car'], min_width: 5 } },
    `${res.request} params.geometries (5 read as the number the schema asks for)`,
  );
  expectEqual(res.body.metadata, { order: 'A-17' }, `${res.request} metadata`);
});

contract(
  'POST /v1/task/imageannotation with an unknown top-level parameter ignores it and names it in ' +
    'Labelmock-Warning (documented leniency)',
  async (ctx) => {
    const res = await ctx.api.post('/v1/task/imageannotation', imageTaskBody({ frobnication_level: 3 }));
    expectStatus(res, 200);
    expectEqual(res.body.params.frobnication_level, undefined, `${res.request} params.frobnication_level`);
    expectMatch(
      res.headers.get('labelmock-warning'),
      /^ignored 1 unknown parameter\(s\): "frobnication_level"$/,
      'Labelmock-Warning',
    );
  },
);

contract(
  'POST /v1/batches with callback_url (as microsoft/P.808 sends it) creates the batch (documented leniency)',
  async (ctx) => {
    const project = ctx.unique('p808');
    expectStatus(await ctx.api.post('/v1/projects', { type: 'categorization', name: project }), 200);
    const res = await ctx.api.post('/v1/batches', {
      project,
      name: ctx.unique('b808'),
      callback_url: 'https://example.com/batch-done',
    });
    expectStatus(res, 200);
    expectMatch(res.headers.get('labelmock-warning'), /"callback_url"/, 'Labelmock-Warning');
  },
);

contract(
  'PATCH /_mock/settings unknown_params strict: an unknown parameter answers 400 naming it',
  async (ctx) => {
    expectStatus(await ctx.api.patch('/_mock/settings', { unknown_params: 'strict' }), 200);
    ctx.defer(async () => {
      expectStatus(await ctx.api.patch('/_mock/settings', { unknown_params: 'lenient' }), 200);
    });
    const res = await ctx.api.post('/v1/task/imageannotation', imageTaskBody({ frobnication_level: 3 }));
    expectErrorBody(res, 400, 'frobnication_level');
    const query = await ctx.api.get('/v1/tasks?colour=red');
    expectErrorBody(query, 400, 'colour');
  },
  { kind: 'labelmock' },
);

// scaleapi/sail@1752021, batch.py: batches are created at `POST https://api.scale.com/v1/batches/` (a trailing slash).
contract('POST /v1/batches/ with a trailing slash, as sail posts it, creates the batch', async (ctx) => {
  const project = ctx.unique('sail');
  expectStatus(await ctx.api.post('/v1/projects', { type: 'imageannotation', name: project }), 200);
  const name = ctx.unique('sail-batch');
  const res = await ctx.api.post('/v1/batches/', { project, name });
  expectStatus(res, 200);
  await ctx.rule('the batch is made and reads back', async () => {
    expectEqual(asObject(res.body, res.request).name, name, 'name');
    expectStatus(await ctx.api.get(`/v1/batches/${encodeURIComponent(name)}`), 200);
  });
});

// scaleapi/sail@6679edb, task_download/task_download.py: the first page of a batch's tasks asks `next_token=''`.
contract('GET /v1/tasks?next_token= (empty), as sail starts paging, answers the first page', async (ctx) => {
  const project = ctx.unique('sail');
  expectStatus(await ctx.api.post('/v1/projects', { type: 'imageannotation', name: project }), 200);
  const task = await ctx.api.post('/v1/task/imageannotation', imageTaskBody({ project }));
  expectStatus(task, 200);
  const res = await ctx.api.get('/v1/tasks', { query: { project, next_token: '' } });
  expectStatus(res, 200);
  await ctx.rule("the page holds the project's task", () =>
    expectEqual(
      res.body.docs.map((t: { task_id: string }) => t.task_id),
      [task.body.task_id],
      'docs',
    ),
  );
});
