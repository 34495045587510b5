import { describe, expect, it } from 'vitest';
import { HarSchema } from '../src/domain/har/schema.js';
import { formOf, upload } from './file-helpers.js';
import { harProblems } from './har-validate.js';
import { createImageTask, imageRequest, makeApp } from './helpers.js';

/** The request journal as HAR 1.2, checked by the har-schema package's JSON Schema as well as by labelmock's. */

describe('GET /_mock/requests?format=har', () => {
  it('answers the journal as HAR 1.2, oldest first: requests, bodies, answers, a multipart form', async () => {
    const t = makeApp();
    const task = await createImageTask(t);
    await t.call('GET', `/v1/tasks?limit=5&tags=a&tags=b`);
    await t.call('GET', '/v1/task/nope');
    await upload(t, formOf({ display_name: 'scan' }, { filename: 's.bin', content: 'bytes' }));
    const res = await t.call('GET', '/_mock/requests?format=har');
    expect(res.status).toBe(200);
    expect(harProblems(res.body)).toEqual([]);
    // The validator can fail: an archive without creator or entries.
    expect(harProblems({ log: { version: '1.2' } })).toContain("/log must have required property 'creator'");
    const { log } = HarSchema.parse(res.body);
    expect(log.creator.name).toBe('labelmock');
    const [created, listed, missing, uploaded] = log.entries;
    expect(log.entries.map((entry) => [entry.request.method, entry.response.status])).toEqual([
      ['POST', 200],
      ['GET', 200],
      ['GET', 404],
      ['POST', 200],
    ]);
    expect(created?.request.url).toBe('http://localhost/v1/task/imageannotation');
    expect(JSON.parse(created?.request.postData?.text ?? '')).toEqual(imageRequest());
    expect(JSON.parse(created?.response.content.text ?? '')).toMatchObject({ task_id: task.task_id });
    expect(created?._labelmock?.id).toBe('req_1');
    expect(listed?.request.queryString).toEqual([
      { name: 'limit', value: '5' },
      { name: 'tags', value: 'a' },
      { name: 'tags', value: 'b' },
    ]);
    expect(missing?.response.statusText).toBe('Not Found');
    expect(uploaded?.request.postData?.params).toEqual([{ name: 'display_name' }, { name: 'file', fileName: 's.bin' }]);
    expect(created?.request.headers.map((header) => header.name)).not.toContain('authorization');
  });

  it('takes the same filters as the JSON journal; an unknown format is a 400 naming it', async () => {
    const t = makeApp();
    await createImageTask(t);
    await t.call('GET', '/v1/task/nope');
    const har = await t.call('GET', '/_mock/requests?format=har&status=404');
    expect(har.body.log.entries.map((entry: { request: { url: string } }) => entry.request.url)).toEqual([
      'http://localhost/v1/task/nope',
    ]);
    const bad = await t.call('GET', '/_mock/requests?format=xml');
    expect([bad.status, bad.body.error]).toEqual([400, expect.stringContaining('format')]);
  });
});
