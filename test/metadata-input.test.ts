/**
 * Metadata wherever it is set: one 10 KB limit, `__proto__` keys stored as sent (and refused by
 * name elsewhere, never dropped), and upload text fields read even when sent as file parts.
 */
import { describe, expect, it } from 'vitest';
import { METADATA_MAX_BYTES } from '../src/domain/common/input-limits.js';
import { formOf, project, upload } from './file-helpers.js';
import { basic, createImageTask, imageRequest, makeApp } from './helpers.js';

/** Metadata of exactly `bytes` bytes as JSON: `{"k":"xxx..."}`. */
const metadataOf = (bytes: number) => ({ k: 'x'.repeat(bytes - '{"k":""}'.length) });
const PROTO = '{"__proto__":{"polluted":true},"a":1}';

const expectError = (res: { status: number; body: any }, status: number, message: RegExp) => {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ status_code: status, error: expect.stringMatching(message) });
};

/** The metadata as it went over the wire, `__proto__` key included (toEqual would not see it). */
const wire = (res: { body: any }) => JSON.stringify(res.body.metadata);

describe('metadata input', () => {
  it('POST /v1/task/{id}/setMetadata holds metadata to 10 KB, as creation does', async () => {
    const t = makeApp();
    const task = await createImageTask(t);
    const at = await t.call('POST', `/v1/task/${task.task_id}/setMetadata`, { body: metadataOf(METADATA_MAX_BYTES) });
    expect(at.status).toBe(200);
    const over = await t.call('POST', `/v1/task/${task.task_id}/setMetadata`, {
      body: metadataOf(METADATA_MAX_BYTES + 1),
    });
    expectError(
      over,
      400,
      /^Parameter is invalid, reason: "metadata" must be at most 10 KB \(10240 bytes\) as JSON \(got 10241 bytes\)$/,
    );
    const big = await t.call('POST', `/v1/task/${task.task_id}/setMetadata`, { body: metadataOf(4_800_000) });
    expectError(big, 400, /"metadata" must be at most 10 KB/);
    expect((await t.call('GET', `/v1/task/${task.task_id}`)).body.metadata).toEqual(metadataOf(METADATA_MAX_BYTES));
  });

  it('POST /v1/batches/{name}/setMetadata holds metadata to 10 KB', async () => {
    const t = makeApp();
    await project(t, 'p');
    await t.call('POST', '/v1/batches', { body: { project: 'p', name: 'b' } });
    const over = await t.call('POST', '/v1/batches/b/setMetadata', { body: metadataOf(METADATA_MAX_BYTES + 1) });
    expectError(over, 400, /"metadata" must be at most 10 KB \(10240 bytes\) as JSON/);
    expect((await t.call('POST', '/v1/batches/b/setMetadata', { body: metadataOf(METADATA_MAX_BYTES) })).status).toBe(
      200,
    );
  });

  it('POST /v1/task/{id}/setMetadata stores a __proto__ key as sent, and never as a prototype', async () => {
    const t = makeApp();
    const task = await createImageTask(t);
    const res = await t.call('POST', `/v1/task/${task.task_id}/setMetadata`, { raw: PROTO });
    expect(res.status).toBe(200);
    expect(wire(res)).toBe(PROTO);
    expect(wire(await t.call('GET', `/v1/task/${task.task_id}`))).toBe(PROTO);
    expect(JSON.stringify((await t.call('GET', '/v1/tasks?limited_response=true')).body.docs[0].metadata)).toBe(PROTO);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('POST /v1/task/imageannotation, /v1/batches, /v1/files/import keep a __proto__ metadata key as sent', async () => {
    const t = makeApp();
    await project(t, 'p');
    const base = JSON.stringify(imageRequest()).slice(0, -1);
    expect(
      wire(
        await t.call('POST', '/v1/task/imageannotation', {
          raw: `${base.replace(/"metadata":\{[^}]*\},?/, '')},"metadata":${PROTO}}`,
        }),
      ),
    ).toBe(PROTO);
    expect(wire(await t.call('POST', '/v1/batches', { raw: `{"project":"p","name":"b","metadata":${PROTO}}` }))).toBe(
      PROTO,
    );
    expect(wire(await t.call('POST', '/v1/batches/b/setMetadata', { raw: PROTO }))).toBe(PROTO);
    expect(
      wire(
        await t.call('POST', '/v1/files/import', {
          raw: `{"file_url":"https://example.com/a.png","metadata":${PROTO}}`,
        }),
      ),
    ).toBe(PROTO);
  });

  it('PUT /_mock/state keeps __proto__ metadata keys through an export and import', async () => {
    const t = makeApp();
    const task = await createImageTask(t);
    await t.call('POST', `/v1/task/${task.task_id}/setMetadata`, { raw: PROTO });
    const exported = await (
      await t.app.request('/_mock/state', {
        headers: { authorization: basic('test_acme') },
      })
    ).text();
    expect((await t.call('PUT', '/_mock/state', { raw: exported })).status).toBe(200);
    expect(wire(await t.call('GET', `/v1/task/${task.task_id}`))).toBe(PROTO);
  });

  it('GET /v1/files?metadata= matches a __proto__ key only in files that have it', async () => {
    const t = makeApp();
    await project(t, 'p');
    await t.call('POST', '/v1/files/import', {
      raw: `{"file_url":"https://example.com/a.png","project_name":"p","metadata":${PROTO}}`,
    });
    await t.call('POST', '/v1/files/import', {
      body: { file_url: 'https://example.com/b.png', project_name: 'p', metadata: { a: 1 } },
    });
    const res = await t.call(
      'GET',
      `/v1/files?projects=p&metadata=${encodeURIComponent('{"__proto__":{"polluted":true}}')}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.docs.map((d: { file_url: string }) => d.file_url)).toEqual(['https://example.com/a.png']);
  });

  it('POST /v1/task/imageannotation refuses a __proto__ key outside metadata, naming it', async () => {
    const t = makeApp();
    const raw = JSON.stringify(imageRequest()).replace(
      '"annotation_attributes":{',
      '"annotation_attributes":{"__proto__":{"description":"d","choices":["x"]},',
    );
    const res = await t.call('POST', '/v1/task/imageannotation', { raw });
    expectError(
      res,
      400,
      new RegExp(
        '^Parameter is invalid, reason: "annotation_attributes\\.__proto__" is not an allowed key: ' +
          '__proto__ is only kept inside metadata$',
      ),
    );
  });

  it('POST /v1/files/upload keeps a __proto__ metadata key and refuses metadata nested past the limit', async () => {
    const t = makeApp();
    const ok = await upload(t, formOf({ metadata: PROTO }, { filename: 'a.txt', content: 'a' }));
    expect(ok.status).toBe(200);
    expect(wire(ok)).toBe(PROTO);
    const deep = `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`;
    const res = await upload(t, formOf({ metadata: deep }, { filename: 'a.txt', content: 'a' }));
    expectError(
      res,
      400,
      /^Parameter is invalid, reason: "metadata\.a\.a[.a]*" is nested deeper than the limit of 64 levels$/,
    );
  });

  it('POST /v1/files/upload reads text fields sent as file parts (curl -F name=@file)', async () => {
    const t = makeApp();
    await project(t, 'p');
    const form = formOf({}, { filename: 'scan.png', type: 'image/png', content: 'png' });
    form.append('display_name', new Blob(['Front page']), 'name.txt');
    form.append('metadata', new Blob(['{"lot":7}'], { type: 'application/json' }), 'meta.json');
    form.append('project_name', new Blob(['p']), 'project.txt');
    const res = await upload(t, form);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ display_name: 'Front page', metadata: { lot: 7 }, project_names: ['p'] });
  });

  it('POST /v1/files/upload refuses a text field sent as a file part over the field limit, naming it', async () => {
    const t = makeApp();
    const form = formOf({}, { filename: 'a.txt', content: 'a' });
    form.append('reference_id', new Blob(['r'.repeat(70 * 1024)]), 'ref.txt');
    const res = await upload(t, form);
    expectError(res, 400, /^Parameter is invalid, reason: "reference_id" must be at most 65536 bytes$/);
  });
});
