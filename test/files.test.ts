import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FILE_MAX_BYTES } from '../src/domain/files/limits.js';
import { formOf, project, rawMultipart, readContent, upload, uploadText } from './file-helpers.js';
import { basic, KEY, makeApp, STRICT } from './helpers.js';

const OTHER_ACCOUNT = 'test_other';
const LIVE = 'live_acme';

describe('POST /v1/files/upload', () => {
  it('POST /v1/files/upload answers the record; the control route answers the same bytes and type', async () => {
    const t = makeApp();
    await project(t, 'scans');
    const content = randomBytes(300);
    const res = await upload(
      t,
      formOf(
        { project_name: 'scans', reference_id: 'r-1', metadata: '{"lot":7}' },
        { filename: 'page.png', type: 'image/png', content },
      ),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: '000000000000000000000001',
      attachment_url: 'scaledata://acme/000000000000000000000001',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      mime_type: 'image/png',
      project_names: ['scans'],
      size: 300,
      display_name: 'page.png',
      reference_id: 'r-1',
      metadata: { lot: 7 },
    });
    const read = await readContent(t, res.body.id);
    expect(read.status).toBe(200);
    expect(read.type).toBe('image/png');
    expect(read.bytes.equals(content)).toBe(true);
  });

  it('POST /v1/files/upload reads the parts right however the stream is chunked', async () => {
    const t = makeApp();
    const content = randomBytes(3000);
    const { body, contentType } = rawMultipart(
      { display_name: 'cloud', metadata: '{"a":[1,2]}' },
      { filename: 'scan.bin', content },
    );
    for (const size of [1, 7, 100, 65_536]) {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < body.length; at += size) controller.enqueue(body.slice(at, at + size));
          controller.close();
        },
      });
      const res = await upload(t, { body: stream, contentType });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ size: content.length, display_name: 'cloud', metadata: { a: [1, 2] } });
      expect((await readContent(t, res.body.id)).bytes.equals(content), `chunks of ${size}`).toBe(true);
    }
  });

  it('POST /v1/files/upload of a part larger than the in-memory spool (4 MB) keeps its bytes intact', async () => {
    const t = makeApp();
    const content = randomBytes(5 * 1024 * 1024 + 17);
    const { body, contentType } = rawMultipart({}, { filename: 'scan.bin', content });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < body.length; at += 1000) controller.enqueue(body.slice(at, at + 1000));
        controller.close();
      },
    });
    const res = await upload(t, { body: stream, contentType });
    expect(res.status).toBe(200);
    expect((await readContent(t, res.body.id)).bytes.equals(content)).toBe(true);
  });

  it('POST /v1/files/upload guesses mime_type from the extension of a part without Content-Type (Python)', async () => {
    const t = makeApp();
    const cases: [string, string | undefined, string][] = [
      ['Scan.PDF', undefined, 'application/pdf'],
      ['frame.jpeg', 'application/octet-stream', 'image/jpeg'],
      ['cloud.las', undefined, 'application/vnd.las'],
      ['notes', 'text/markdown', 'text/markdown'],
      ['blob', undefined, 'application/octet-stream'],
    ];
    for (const [filename, type, expected] of cases) {
      const res = await upload(t, rawMultipart({}, { filename, type, content: 'x' }));
      expect(res.status).toBe(200);
      expect(res.body.mime_type, filename).toBe(expected);
      expect(res.body.display_name).toBe(filename);
    }
  });

  it('POST /v1/files/upload with a used reference_id is a 409 naming the file that holds it', async () => {
    const t = makeApp();
    const first = await uploadText(t, 'a', { reference_id: 'dup' });
    const res = await upload(t, formOf({ reference_id: 'dup' }, { filename: 'b.txt', content: 'b' }));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ status_code: 409, error: `A file with reference_id "dup" already exists: ${first.id}` });
    expect(
      (await upload(t, formOf({ reference_id: 'dup' }, { filename: 'b.txt', content: 'b' }), { key: LIVE })).status,
    ).toBe(200);
  });

  const rejections: [string, FormData | ReturnType<typeof rawMultipart>, number, RegExp][] = [
    [
      'metadata that is not JSON',
      formOf({ metadata: '{lot: 7' }, { filename: 'a.txt', content: 'a' }),
      400,
      /"metadata" must be a JSON object sent as a string/,
    ],
    [
      'metadata that is not an object',
      formOf({ metadata: '[1,2]' }, { filename: 'a.txt', content: 'a' }),
      400,
      /"metadata" must be an object \(got array\)/,
    ],
    [
      'metadata over 10 KB',
      formOf({ metadata: JSON.stringify({ k: 'x'.repeat(10_300) }) }, { filename: 'a.txt', content: 'a' }),
      400,
      /"metadata" must be at most 10 KB/,
    ],
    [
      'an unknown field',
      formOf({ folder: 'x', tags: 'y' }, { filename: 'a.txt', content: 'a' }),
      400,
      /"folder" is not an allowed parameter; "tags" is not an allowed parameter/,
    ],
    ['a missing file', formOf({ display_name: 'x' }), 400, /"file" is required/],
    ['file as a text field', formOf({ file: 'hello' }), 400, /"file" must be a file part/],
    [
      'a file part under another name',
      formOf({}, { name: 'upload', filename: 'a.txt', content: 'a' }),
      400,
      /"upload" is not an allowed parameter/,
    ],
    [
      'a repeated field',
      rawMultipart({ display_name: 'a' }, { name: 'display_name', filename: 'a.txt', content: 'a' }),
      400,
      /"display_name" is given more than once/,
    ],
  ];
  for (const [what, body, status, message] of rejections) {
    it(`POST /v1/files/upload rejects ${what}`, async () => {
      const t = makeApp();
      const res = await upload(t, body);
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ status_code: status, error: expect.stringMatching(message) });
      expect((await t.call('GET', '/_mock/state')).body.files).toEqual([]);
    });
  }

  it('POST /v1/files/upload with a JSON or truncated body is a 400 that says what the route takes', async () => {
    const t = makeApp();
    const json = await t.call('POST', '/v1/files/upload', { body: { file: 'x' } });
    expect(json.status).toBe(400);
    expect(json.body.error).toMatch(/This route takes multipart\/form-data \(a "file" part.*got application\/json/);
    const { body, contentType } = rawMultipart({}, { filename: 'a.txt', content: 'abc' });
    const truncated = await upload(t, { body: body.subarray(0, body.length - 10), contentType });
    expect(truncated.status).toBe(400);
    expect(truncated.body.error).toMatch(/not valid multipart\/form-data: Unexpected end of multipart data/);
  });

  it('POST /v1/files/upload with an unknown project is a 404; with a project of the other mode a 400', async () => {
    const t = makeApp();
    await project(t, 'live-only', LIVE);
    const unknown = await upload(t, formOf({ project_name: 'nope' }, { filename: 'a.txt', content: 'a' }));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('Project "nope" not found');
    const otherMode = await upload(t, formOf({ project_name: 'live-only' }, { filename: 'a.txt', content: 'a' }));
    expect(otherMode.status).toBe(400);
    expect(otherMode.body.error).toMatch(/"project_name" names project "live-only", which was created with a live key/);
  });

  it('POST /v1/files/upload of a file part of 80 MB + 1 byte is a 413; exactly 80 MB is accepted', async () => {
    const t = makeApp();
    const over = await upload(t, formOf({}, { filename: 'big.bin', content: new Uint8Array(FILE_MAX_BYTES + 1) }));
    expect(over.status).toBe(413);
    expect(over.body).toEqual({
      status_code: 413,
      error: 'Parameter is invalid, reason: "file" must be at most 80 MB (80000000 bytes)',
    });
    const exact = await upload(t, formOf({}, { filename: 'big.bin', content: new Uint8Array(FILE_MAX_BYTES) }));
    expect(exact.status).toBe(200);
    expect(exact.body.size).toBe(FILE_MAX_BYTES);
  });

  it('POST /v1/files/upload with a declared Content-Length over the limit is a 413 before reading', async () => {
    const t = makeApp();
    const { body, contentType } = rawMultipart({}, { filename: 'a.txt', content: 'a' });
    const res = await upload(
      t,
      { body, contentType },
      { headers: { 'content-length': String(FILE_MAX_BYTES + 2 * 1024 * 1024) } },
    );
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ status_code: 413, error: expect.stringMatching(/"file" must be at most 80 MB/) });
  });
});

describe('POST /v1/files/import', () => {
  it('POST /v1/files/import records the URL without fetching it: size null, type from the path', async () => {
    const t = makeApp();
    await project(t, 'scans');
    const res = await t.call('POST', '/v1/files/import', {
      body: { file_url: 'https://example.com/a/b/photo%201.JPG?sig=1', project_name: 'scans', metadata: { k: 1 } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: '000000000000000000000001',
      attachment_url: 'scaledata://acme/000000000000000000000001',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      mime_type: 'image/jpeg',
      project_names: ['scans'],
      size: null,
      display_name: 'photo 1.JPG',
      metadata: { k: 1 },
      file_url: 'https://example.com/a/b/photo%201.JPG?sig=1',
    });
    const content = await readContent(t, res.body.id);
    expect(content.status).toBe(404);
    expect(JSON.parse(content.bytes.toString()).error).toMatch(/the mock never fetches imported URLs/);
    const unknownType = await t.call('POST', '/v1/files/import', { body: { file_url: 's3://bucket/key' } });
    expect(unknownType.body).toMatchObject({ mime_type: null, display_name: 'key' });
  });

  it('POST /v1/files/import rejects a relative URL, unknown fields (strict) and a used reference_id', async () => {
    const t = makeApp(STRICT);
    await uploadText(t, 'a', { reference_id: 'ref' });
    const relative = await t.call('POST', '/v1/files/import', { body: { file_url: '/a.png' } });
    expect(relative.status).toBe(400);
    expect(relative.body.error).toMatch(/"file_url" must be an absolute URL/);
    const extra = await t.call('POST', '/v1/files/import', { body: { file_url: 'https://x.test/a.png', size: 3 } });
    expect(extra.body.error).toMatch(/"size" is not an allowed parameter/);
    const reused = await t.call('POST', '/v1/files/import', {
      body: { file_url: 'https://x.test/a.png', reference_id: 'ref' },
    });
    expect(reused.status).toBe(409);
    expect(
      (await t.call('POST', '/v1/files/import', { body: { file_url: 'https://x.test/a.png', project_name: 'nope' } }))
        .status,
    ).toBe(404);
  });
});

describe('GET /_mock/files/{fileId}/content', () => {
  it("GET /_mock/files/{fileId}/content is a 404 for an unknown id and for another tenant's file", async () => {
    const t = makeApp();
    const file = await uploadText(t, 'secret');
    expect((await readContent(t, 'ffffffffffffffffffffffff')).status).toBe(404);
    expect((await readContent(t, file.id, OTHER_ACCOUNT)).status).toBe(404);
    expect((await readContent(t, file.id, LIVE)).status).toBe(404);
    expect((await readContent(t, file.id)).bytes.toString()).toBe('secret');
  });

  it('GET /_mock/files/{fileId}/content never serves active content: nosniff, sandbox, HTML downloaded', async () => {
    const t = makeApp();
    const cases: [string, string, string, string | null][] = [
      ['page.html', 'text/html', 'text/html', 'attachment'],
      ['icon.svg', 'image/svg+xml', 'image/svg+xml', 'attachment'],
      ['feed', 'application/xhtml+xml', 'application/xhtml+xml', 'attachment'],
      ['x.png', 'image/png', 'image/png', null],
      ['odd', 'not a type', 'application/octet-stream', null],
    ];
    for (const [filename, type, served, disposition] of cases) {
      const uploaded = await upload(t, rawMultipart({}, { filename, type, content: '<script>alert(1)</script>' }));
      expect(uploaded.status, filename).toBe(200);
      const res = await t.app.request(`/_mock/files/${uploaded.body.id}/content`, {
        headers: { authorization: basic(KEY) },
      });
      expect(res.status, filename).toBe(200);
      expect(res.headers.get('content-type'), filename).toBe(served);
      expect(res.headers.get('x-content-type-options'), filename).toBe('nosniff');
      expect(res.headers.get('content-security-policy'), filename).toBe("default-src 'none'; sandbox");
      expect(res.headers.get('content-disposition'), filename).toBe(disposition);
    }
  });
});
