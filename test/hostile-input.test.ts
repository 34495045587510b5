/**
 * Bodies built to hurt: nested past any use, larger than any list needs, keys named after Object's
 * own properties. Each is refused with a 400 naming the limit (never a 500), quickly, and leaves the
 * tenant readable. Figures: scripts/bench-input.ts.
 */
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, MAX_JSON_VALUES, MAX_LABELS } from '../src/domain/common/input-limits.js';
import { createImageTask, imageRequest, makeApp, STRICT, type TestApp } from './helpers.js';

/** `{"a":{"a":...1}}`, `levels` objects deep, written by hand: JSON.stringify itself recurses. */
const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
/** A label `levels` choices deep, by hand for the same reason. */
const deepLabel = (levels: number) => `${'{"choice":"c","subchoices":['.repeat(levels)}"leaf"${']}'.repeat(levels)}`;
const imageWith = (fields: string) =>
  `{"attachment":"https://example.com/a.jpg","geometries":{"box":{"objects_to_annotate":["car"]}},${fields}}`;

const expectError = (res: { status: number; body: any }, status: number, message: RegExp) => {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ status_code: status, error: expect.stringMatching(message) });
};

const TOO_DEEP = new RegExp(`is nested deeper than the limit of ${MAX_JSON_DEPTH} levels`);

async function expectTenantReadable(t: TestApp, taskId: string) {
  expect((await t.call('GET', `/v1/task/${taskId}`)).status).toBe(200);
  expect((await t.call('GET', '/v1/tasks')).status).toBe(200);
  expect((await t.call('GET', '/v1/tasks?limited_response=true')).status).toBe(200);
  expect((await t.call('GET', '/_mock/state')).status).toBe(200);
}

describe('hostile input', () => {
  it('POST /v1/task/{id}/setMetadata refuses 10,000-level metadata; the tenant stays readable and usable', async () => {
    const t = makeApp();
    const task = await createImageTask(t);
    const res = await t.call('POST', `/v1/task/${task.task_id}/setMetadata`, { raw: `{"x":${deepObject(10_000)}}` });
    expectError(
      res,
      400,
      /^Parameter is invalid, reason: "metadata\.x\.a\.a\.a[.a]*" is nested deeper than the limit of 64 levels$/,
    );
    expect((await t.call('GET', `/v1/task/${task.task_id}`)).body.metadata).toEqual(task.metadata);
    await expectTenantReadable(t, task.task_id);
    const done = await t.call('POST', `/_mock/tasks/${task.task_id}/complete`);
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('completed');
    const journal = await t.call('GET', `/_mock/callbacks?task_id=${task.task_id}`);
    expect(journal.body.deliveries).toHaveLength(1);
  });

  it('POST /v1/task/{id}/setMetadata takes metadata nested to the limit of 64 levels, not one more', async () => {
    const t = makeApp();
    const task = await createImageTask(t);
    const ok = await t.call('POST', `/v1/task/${task.task_id}/setMetadata`, { raw: deepObject(MAX_JSON_DEPTH) });
    expect(ok.status).toBe(200);
    const over = await t.call('POST', `/v1/task/${task.task_id}/setMetadata`, { raw: deepObject(MAX_JSON_DEPTH + 1) });
    expectError(over, 400, TOO_DEEP);
    await expectTenantReadable(t, task.task_id);
  });

  it('PUT /_mock/state takes back an export whose metadata is nested to the limit', async () => {
    const t = makeApp();
    const task = await createImageTask(t);
    await t.call('POST', `/v1/task/${task.task_id}/setMetadata`, { raw: deepObject(MAX_JSON_DEPTH) });
    const state = await t.call('GET', '/_mock/state');
    const back = await t.call('PUT', '/_mock/state', { body: state.body });
    expect(back.status).toBe(200);
    expect((await t.call('GET', `/v1/task/${task.task_id}`)).body.metadata).toEqual(state.body.tasks[0].task.metadata);
  });

  it.each([
    ['POST', '/v1/task/imageannotation', imageWith(`"metadata":${deepObject(10_000)}`), /"metadata\.a\.a/],
    ['POST', '/v1/batches', `{"project":"p","name":"b","metadata":${deepObject(10_000)}}`, /"metadata\.a\.a/],
    ['POST', '/v1/projects', `{"type":"imageannotation","name":"q","params":${deepObject(10_000)}}`, /"params\.a\.a/],
    [
      'POST',
      '/v1/files/import',
      `{"file_url":"https://example.com/f.png","metadata":${deepObject(10_000)}}`,
      /"metadata\.a\.a/,
    ],
    ['POST', '/v1/projects/p/setParams', deepObject(10_000), /"a\.a\.a/],
    ['POST', '/_mock/tasks/TASK/complete', `{"response":${deepObject(10_000)}}`, /"response\.a\.a/],
    [
      'PUT',
      '/_mock/state',
      `{"format":"labelmock-state/1","settings":${deepObject(10_000)}}`,
      /"settings\.a\.a.*" is nested deeper than the limit of 72 levels/,
    ],
    [
      'POST',
      '/v1/task/imageannotation',
      imageWith(`"tags":${'['.repeat(10_000)}${']'.repeat(10_000)}`),
      /"tags\[0\]\[0\]/,
    ],
  ])('%s %s refuses a body nested 10,000 levels with a 400 naming the place', async (method, path, raw, where) => {
    const t = makeApp();
    await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name: 'p' } });
    const task = await createImageTask(t);
    const res = await t.call(method, path.replace('TASK', task.task_id), { raw });
    expectError(res, 400, /is nested deeper than the limit of \d+ levels/);
    expect(res.body.error).toMatch(where);
    await expectTenantReadable(t, task.task_id);
  });

  it('POST /v1/task/imageannotation refuses objects_to_annotate nested 1,000 subchoices deep with a 400', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/task/imageannotation', {
      raw:
        `{"attachment":"https://example.com/a.jpg",` +
        `"geometries":{"box":{"objects_to_annotate":[${deepLabel(1000)}]}}}`,
    });
    expectError(res, 400, TOO_DEEP);
    expect(res.body.error).toMatch(/"geometries\.box\.objects_to_annotate\[0\]\.subchoices\[0\]/);
  });

  it('POST /v1/projects/{name}/setOntology refuses an ontology nested 1,000 levels with a 400', async () => {
    const t = makeApp();
    await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name: 'p' } });
    const res = await t.call('POST', '/v1/projects/p/setOntology', {
      raw: `{"name":"o","ontology":[${deepLabel(1000)}]}`,
    });
    expectError(res, 400, TOO_DEEP);
    expect(res.body.error).toMatch(/"ontology\[0\]\.subchoices\[0\]/);
  });

  it('POST /v1/task/imageannotation with an Idempotency-Key refuses a deep body (400) and replays it', async () => {
    const t = makeApp();
    const raw = imageWith(`"metadata":${deepObject(10_000)}`);
    const first = await t.call('POST', '/v1/task/imageannotation', { raw, headers: { 'idempotency-key': 'deep-1' } });
    expectError(first, 400, TOO_DEEP);
    const again = await t.call('POST', '/v1/task/imageannotation', { raw, headers: { 'idempotency-key': 'deep-1' } });
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('POST /v1/task/imageannotation refuses a body of more values than the limit, before parsing it', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/task/imageannotation', {
      body: imageRequest({ tags: Array.from({ length: 500_000 }, (_, i) => `t${i}`) }),
    });
    expectError(
      res,
      400,
      new RegExp(
        `^Parameter is invalid, reason: "tags\\[\\d+\\]" ` +
          `is past the limit of ${MAX_JSON_VALUES} JSON values in one body`,
      ),
    );
  });

  it('POST /v1/task/imageannotation refuses 6 tags by their number, before checking each tag', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/task/imageannotation', {
      body: imageRequest({ tags: ['', '', '', '', '', ''] }),
    });
    expectError(res, 400, /^Parameter is invalid, reason: "tags" must have at most 5 item\(s\)$/);
  });

  it('PUT /v1/task/{id}/tags refuses a body of more than 100 tags by its length', async () => {
    const t = makeApp();
    const task = await createImageTask(t);
    const res = await t.call('PUT', `/v1/task/${task.task_id}/tags`, { body: Array.from({ length: 101 }, () => '') });
    expectError(res, 400, /^Parameter is invalid, reason: "body" must have at most 100 item\(s\)$/);
  });

  it('POST /v1/task/imageannotation refuses more than 1,000 labels in one tree, subchoices included', async () => {
    const t = makeApp();
    const vehicle = { choice: 'vehicle', subchoices: Array.from({ length: MAX_LABELS }, (_, i) => `v${i}`) };
    const labels = [vehicle];
    const res = await t.call('POST', '/v1/task/imageannotation', {
      body: imageRequest({ geometries: { box: { objects_to_annotate: labels } } }),
    });
    expectError(
      res,
      400,
      /"geometries\.box\.objects_to_annotate" must have at most 1000 labels \(subchoices included\)/,
    );
    const fits = await t.call('POST', '/v1/task/imageannotation', {
      body: imageRequest({
        geometries: {
          box: { objects_to_annotate: [{ choice: 'vehicle', subchoices: vehicle.subchoices.slice(1) }] },
        },
      }),
    });
    expect(fits.status).toBe(200);
  });

  it('POST /v1/task/namedentityrecognition refuses more than 1,000 labels, children included', async () => {
    const t = makeApp();
    const labels = [{ name: 'ORG', children: Array.from({ length: MAX_LABELS }, (_, i) => ({ name: `o${i}` })) }];
    const res = await t.call('POST', '/v1/task/namedentityrecognition', {
      body: { instruction: 'Label.', text: 'Ada.', labels },
    });
    expectError(res, 400, /"labels" must have at most 1000 labels \(children included\)/);
  });

  it('POST /v1/task/imageannotation with 9,000 unknown keys (strict) names five, counts the rest', async () => {
    const t = makeApp(STRICT);
    const body = imageRequest(Object.fromEntries(Array.from({ length: 9000 }, (_, i) => [`extra_${i}`, 0])));
    const res = await t.call('POST', '/v1/task/imageannotation', { body });
    expectError(res, 400, /"extra_4" is not an allowed parameter; and 8995 more unknown key\(s\)$/);
    expect(res.body.error.length).toBeLessThan(1000);
  });

  it('POST /v1/task/imageannotation with 9,000 unknown keys (lenient) ignores them in one short warning', async () => {
    const t = makeApp();
    const body = imageRequest(Object.fromEntries(Array.from({ length: 9000 }, (_, i) => [`extra_${i}`, 0])));
    const res = await t.call('POST', '/v1/task/imageannotation', { body });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.params).filter((key) => key.startsWith('extra_'))).toEqual([]);
    // The first 20 names, then a count: the header's size does not grow with the body's keys.
    const named = Array.from({ length: 20 }, (_, i) => `"extra_${i}"`).join(', ');
    expect(res.headers.get('labelmock-warning')).toBe(`ignored 9000 unknown parameter(s): ${named}, and 8980 more`);
  });

  it('GET /_mock/warnings keeps an ignored key of a million characters as its first 100 characters', async () => {
    const t = makeApp();
    for (let i = 0; i < 5; i += 1) {
      const long = `${String(i).repeat(1_000_000)}`;
      const res = await t.call('POST', '/v1/task/imageannotation', { body: imageRequest({ [long]: 1 }) });
      expect(res.status).toBe(200);
    }
    const { ignored_parameters: tally } = (await t.call('GET', '/_mock/warnings')).body;
    expect(tally.total).toBe(5);
    expect(tally.names.map((n: { name: string }) => n.name.length)).toEqual([104, 104, 104, 104, 104]);
    expect(tally.names[0].name).toBe(`"${'0'.repeat(99)}..."`);
    // A size in characters, not a time: the answer holds cut names, not five million characters of keys.
    expect(JSON.stringify(tally).length).toBeLessThan(2000);
  });

  it('GET /_mock/warnings: the names all tenants keep are bounded together; a reset gives its names back', async () => {
    const t = makeApp();
    const store = t.app.services.store;
    const ignoreIn = (key: string, names: string[]) =>
      t.call('POST', '/v1/task/imageannotation', {
        key,
        body: imageRequest(Object.fromEntries(names.map((n) => [n, 0]))),
      });
    const budget = store.tallyBudget;
    Object.assign(budget, { maxNames: 30 });
    const twenty = Array.from({ length: 20 }, (_, i) => `x${i}`);
    await ignoreIn('test_tally_a', twenty);
    await ignoreIn('test_tally_b', twenty);
    const tallyOf = async (key: string) => (await t.call('GET', '/_mock/warnings', { key })).body.ignored_parameters;
    expect([(await tallyOf('test_tally_a')).names.length, (await tallyOf('test_tally_b')).names.length]).toEqual([
      20, 10,
    ]);
    expect((await tallyOf('test_tally_b')).other).toBe(10);
    expect(budget.held).toBe(30);
    expect((await t.call('POST', '/_mock/reset', { key: 'test_tally_a' })).status).toBe(200);
    expect(budget.held).toBe(10);
    await ignoreIn('test_tally_c', twenty);
    expect((await tallyOf('test_tally_c')).names.length).toBe(20);
  });

  it('POST /v1/task/imageannotation refuses a 5 MB body of 430,000 keys by counting, before any parse', async () => {
    const t = makeApp({ config: { maxBodyBytes: 5 * 1024 * 1024 } });
    const raw = `{${Array.from({ length: 430_000 }, (_, i) => `"k${i}":0`).join(',')}}`;
    const res = await t.call('POST', '/v1/task/imageannotation', { raw });
    // The count's own message: the body was refused by the value budget, not parsed and validated whole
    // (which took 1.2 s; `npm run stress` measures the time).
    expectError(res, 400, /is past the limit of 10000 JSON values/);
  });

  it('POST /v1/task/imageannotation answers conditions on "constructor" or "toString" with 400, not 500', async () => {
    const t = makeApp();
    for (const conditions of [
      { attribute_conditions: { constructor: 'x' } },
      { attribute_conditions: [{ toString: 'x' }, { toString: 'y' }] },
    ]) {
      const res = await t.call('POST', '/v1/task/imageannotation', {
        body: imageRequest({ annotation_attributes: { a: { description: 'd', choices: ['x'], conditions } } }),
      });
      expectError(res, 400, /names attribute "(constructor|toString)", which is not defined in annotation_attributes/);
    }
  });

  it('POST /_mock/tasks/{id}/complete names an answer attribute "constructor" undefined, not a bad value', async () => {
    const t = makeApp();
    const task = await createImageTask(t);
    const annotation = {
      uuid: 'u',
      type: 'box',
      label: 'car',
      left: 1,
      top: 1,
      width: 1,
      height: 1,
      attributes: { constructor: 'x' },
    };
    const res = await t.call('POST', `/_mock/tasks/${task.task_id}/complete`, {
      body: { response: { annotations: [annotation] } },
    });
    expectError(
      res,
      400,
      /"response\.annotations\[0\]\.attributes\.constructor" is not an attribute defined in annotation_attributes/,
    );
  });
});
