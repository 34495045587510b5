import { describe, expect, it } from 'vitest';
import { project, readContent, uploadText } from './file-helpers.js';
import { imageRequest, makeApp, type TestApp } from './helpers.js';

/** GET /v1/files, scaledata:// attachments, tenant isolation, state and documents of the files area. */

const ids = (res: { body: { docs: { id: string }[] } }) => res.body.docs.map((d) => d.id);
const list = (t: TestApp, query: string, key?: string) => t.call('GET', `/v1/files?${query}`, { key });

async function threeProjects(t: TestApp) {
  for (const name of ['a', 'b', 'c']) await project(t, name);
  const inA = await uploadText(t, '1', { project_name: 'a', metadata: '{"lot":1,"tag":{"x":[1]}}' });
  const inB = await uploadText(t, '2', { project_name: 'b', metadata: '{"lot":2}' });
  const inA2 = await uploadText(t, '3', { project_name: 'a', metadata: '{"lot":2}' });
  const loose = await uploadText(t, '4');
  const inC = await t.call('POST', '/v1/files/import', {
    body: { file_url: 'https://x.test/c.png', project_name: 'c', metadata: { lot: 2 } },
  });
  return { inA, inB, inA2, loose, inC: inC.body };
}

describe('GET /v1/files', () => {
  it('GET /v1/files lists the files of any of the projects, newest first', async () => {
    const t = makeApp();
    const f = await threeProjects(t);
    const one = await list(t, 'projects=a');
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ docs: [f.inA2, f.inA], limit: 100, has_more: false, next_cursor: null });
    expect(ids(await list(t, 'projects=a,c'))).toEqual([f.inC.id, f.inA2.id, f.inA.id]);
    expect(ids(await list(t, 'projects=b&projects=c&projects=b'))).toEqual([f.inC.id, f.inB.id]);
  });

  it('GET /v1/files?metadata= keeps the files whose metadata has every given key with an equal value', async () => {
    const t = makeApp();
    const f = await threeProjects(t);
    const q = (metadata: unknown) => `projects=a,b,c&metadata=${encodeURIComponent(JSON.stringify(metadata))}`;
    expect(ids(await list(t, q({ lot: 2 })))).toEqual([f.inC.id, f.inA2.id, f.inB.id]);
    expect(ids(await list(t, q({ lot: 1, tag: { x: [1] } })))).toEqual([f.inA.id]);
    expect(ids(await list(t, q({ lot: '2' })))).toEqual([]);
    expect(ids(await list(t, q({})))).toHaveLength(4);
  });

  it('GET /v1/files pages by cursor until next_cursor is null', async () => {
    const t = makeApp();
    await project(t, 'p');
    const uploaded = [];
    for (let i = 0; i < 5; i += 1)
      uploaded.push((await uploadText(t, String(i), { project_name: 'p', metadata: `{"even":${i % 2 === 0}}` })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(t, `projects=p&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.limit).toBe(2);
      expect(res.body.has_more).toBe(res.body.next_cursor !== null);
      seen.push(...ids(res));
      cursor = res.body.next_cursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...uploaded].reverse());
    const evens = await list(t, `projects=p&limit=2&metadata=${encodeURIComponent('{"even":true}')}`);
    expect(ids(evens)).toEqual([uploaded[4], uploaded[2]]);
    const rest = await list(
      t,
      `projects=p&limit=2&metadata=${encodeURIComponent('{"even":true}')}&cursor=${evens.body.next_cursor}`,
    );
    expect(rest.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(ids(rest)).toEqual([uploaded[0]]);
  });

  const rejections: [string, string, number, RegExp][] = [
    ['no projects', '', 400, /"projects" is required/],
    ['an empty projects list', 'projects=,', 400, /"projects" is required/],
    ['an unknown project', 'projects=a,nope', 404, /Project "nope" not found/],
    [
      'metadata that is not JSON',
      'projects=a&metadata=%7Blot',
      400,
      /"metadata" must be a JSON object sent as a string/,
    ],
    ['metadata that is not an object', 'projects=a&metadata=%5B1%5D', 400, /"metadata" must be an object/],
    ['a cursor it did not issue', 'projects=a&cursor=bm9wZQ', 400, /"cursor" is not a cursor returned by this server/],
    ['a limit over 100', 'projects=a&limit=101', 400, /"limit" must be at most 100/],
  ];
  for (const [what, query, status, message] of rejections) {
    it(`GET /v1/files rejects ${what}`, async () => {
      const t = makeApp();
      await project(t, 'a');
      const res = await list(t, query);
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ status_code: status, error: expect.stringMatching(message) });
    });
  }

  it("GET /v1/files shows only the caller's tenant: another account or mode sees none of its files", async () => {
    const t = makeApp();
    await project(t, 'a');
    await uploadText(t, 'x', { project_name: 'a' });
    expect((await list(t, 'projects=a', 'test_other')).status).toBe(404);
    const live = await list(t, 'projects=a', 'live_acme');
    expect(live.status).toBe(200);
    expect(live.body.docs).toEqual([]);
  });
});

describe('scaledata:// attachments', () => {
  it('POST /v1/task/imageannotation accepts the attachment_url of an uploaded file', async () => {
    const t = makeApp();
    const file = await uploadText(t, 'img', {}, undefined, 'street.png');
    const res = await t.call('POST', '/v1/task/imageannotation', {
      body: imageRequest({ attachment: file.attachment_url }),
    });
    expect(res.status).toBe(200);
    expect(res.body.params.attachment).toBe(file.attachment_url);
  });

  it('POST /v1/task/imageannotation refuses a scaledata:// URL that is not a file of the tenant', async () => {
    const t = makeApp();
    const other = await uploadText(t, 'img', {}, 'test_other', 'street.png');
    const live = await uploadText(t, 'img', {}, 'live_acme', 'street.png');
    const mine = await uploadText(t, 'img', {}, undefined, 'street.png');
    const cases: [Record<string, unknown>, string][] = [
      [{ attachment: other.attachment_url }, 'attachment'],
      [{ attachment: `scaledata://acme/${other.id}` }, 'attachment'],
      [{ attachment: live.attachment_url }, 'attachment'],
      [{ attachment: 'scaledata://acme/ffffffffffffffffffffffff' }, 'attachment'],
      [{ attachment: `${mine.attachment_url}/extra` }, 'attachment'],
      [
        { context_attachment: [{ attachment: 'https://x.test/a.png' }, { attachment: other.attachment_url }] },
        'context_attachment[1].attachment',
      ],
    ];
    for (const [overrides, path] of cases) {
      const res = await t.call('POST', '/v1/task/imageannotation', { body: imageRequest(overrides) });
      expect(res.status, JSON.stringify(overrides)).toBe(400);
      const url = (overrides.attachment ?? other.attachment_url) as string;
      expect(res.body.error).toBe(
        `Parameter is invalid, reason: "${path}" ${url} is not a file of this account ` +
          `(upload it with POST /v1/files/upload)`,
      );
    }
  });

  it('POST /v1/task/imageannotation leaves scaledata:// text in metadata alone', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/task/imageannotation', {
      body: imageRequest({ metadata: { source: 'scaledata://elsewhere/1' } }),
    });
    expect(res.status).toBe(200);
  });
});

describe('files in the tenant state', () => {
  it('GET /_mock/state exports files with their bytes; PUT /_mock/state under another key restores them', async () => {
    const t = makeApp();
    await project(t, 'a');
    const uploaded = await uploadText(t, 'hello bytes', { project_name: 'a', reference_id: 'r1' });
    const imported = await t.call('POST', '/v1/files/import', {
      body: { file_url: 'https://x.test/c.png', project_name: 'a' },
    });
    const state = (await t.call('GET', '/_mock/state')).body;
    expect(state.files).toEqual([
      { ...uploaded, content_base64: Buffer.from('hello bytes').toString('base64') },
      { ...imported.body, content_base64: null },
    ]);
    const put = await t.call('PUT', '/_mock/state', { key: 'test_seeded', body: state });
    expect(put.status).toBe(200);
    const listed = await list(t, 'projects=a', 'test_seeded');
    expect(ids(listed)).toEqual([imported.body.id, uploaded.id]);
    expect(listed.body.docs[1].attachment_url).toBe(`scaledata://seeded/${uploaded.id}`);
    expect((await readContent(t, uploaded.id, 'test_seeded')).bytes.toString()).toBe('hello bytes');
    const dup = await t.call('POST', '/v1/files/import', {
      key: 'test_seeded',
      body: { file_url: 'https://x.test/d.png', reference_id: 'r1' },
    });
    expect(dup.status).toBe(409);
  });

  it('PUT /_mock/state with inconsistent files is a 400 naming the field, and keeps the tenant as it was', async () => {
    const t = makeApp();
    await project(t, 'a');
    const first = await uploadText(t, 'one', { reference_id: 'r1' });
    await uploadText(t, 'two', { reference_id: 'r2' });
    const state = (await t.call('GET', '/_mock/state')).body;
    const cases: [(files: any[]) => void, RegExp][] = [
      [(files) => (files[1].reference_id = 'r1'), /"files\[1\]\.reference_id" "r1" is also used by file/],
      [(files) => (files[1].id = files[0].id), /"files\[1\]\.id" repeats/],
      [(files) => (files[0].size = 99), /"files\[0\]\.size" must be 3, the byte length of content_base64/],
      [(files) => (files[0].content_base64 = 'not base64!'), /"files\[0\]\.content_base64" must be base64/],
      [(files) => (files[0].id = 'short'), /"files\[0\]\.id" must be 24 lowercase hex digits/],
    ];
    for (const [spoil, message] of cases) {
      const bad = structuredClone(state);
      spoil(bad.files);
      const res = await t.call('PUT', '/_mock/state', { body: bad });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(message);
    }
    expect((await readContent(t, first.id)).bytes.toString()).toBe('one');
    expect((await t.call('GET', '/_mock/state')).body.files).toHaveLength(2);
  });
});

describe('OpenAPI of the files area', () => {
  it('documents the upload body as multipart/form-data, file as binary, and the content route as bytes', async () => {
    const t = makeApp();
    const api = await (await t.app.request('/openapi.json')).json();
    const uploadBody = api.paths['/v1/files/upload'].post.requestBody;
    expect(uploadBody.required).toBe(true);
    const schema = uploadBody.content['multipart/form-data'].schema;
    expect(schema.required).toEqual(['file']);
    expect(schema.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(Object.keys(schema.properties)).toEqual([
      'file',
      'display_name',
      'project_name',
      'reference_id',
      'metadata',
    ]);
    expect(api.paths['/v1/files'].get.parameters.find((p: { name: string }) => p.name === 'projects').required).toBe(
      true,
    );
    const control = await (await t.app.request('/_mock/openapi.json')).json();
    const content = control.paths['/_mock/files/{fileId}/content'].get.responses['200'].content;
    expect(content['*/*'].schema).toMatchObject({ type: 'string', format: 'binary' });
  });
});
