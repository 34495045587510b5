import { describe, expect, it } from 'vitest';
import { readConfig } from '../src/config/index.js';
import { DEFAULT_MAX_FILE_BYTES_PER_TENANT } from '../src/store/limits.js';
import { formOf, project, upload, uploadText } from './file-helpers.js';
import { makeApp } from './helpers.js';

const quotaApp = () => makeApp({ config: { maxFileBytesPerTenant: 10 } });
const uploadBytes = (t: ReturnType<typeof makeApp>, content: string, key?: string) =>
  upload(
    t,
    formOf({ project_name: 'p' }, { filename: 'f.txt', type: 'text/plain', content }),
    key === undefined ? {} : { key },
  );

const overMessage = (added: number, total: number) =>
  `File storage limit reached: ${added} more bytes would bring this tenant's uploaded files to ${total} bytes, ` +
  'over the limit of 10 bytes per tenant (--max-file-bytes-per-tenant, LABELMOCK_MAX_FILE_BYTES_PER_TENANT); ' +
  'POST /_mock/reset frees them';

describe('--max-file-bytes-per-tenant', () => {
  it('POST /v1/files/upload past the tenant quota is a 413 naming the limit, and stores nothing', async () => {
    const t = quotaApp();
    await project(t, 'p');
    expect((await uploadBytes(t, '123456')).status).toBe(200);
    const res = await uploadBytes(t, 'abcdef');
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ status_code: 413, error: overMessage(6, 12) });
    const list = await t.call('GET', '/v1/files?projects=p');
    expect(list.body.docs).toHaveLength(1);
  });

  it('POST /v1/files/upload past the quota to an unknown project is the 404 first', async () => {
    const t = quotaApp();
    const res = await upload(t, formOf({ project_name: 'nope' }, { filename: 'f.txt', content: 'x'.repeat(11) }));
    expect(res.status).toBe(404);
    expect(res.body.error).toMatch(/nope/);
  });

  it('POST /v1/files/upload up to the quota exactly is accepted', async () => {
    const t = quotaApp();
    await project(t, 'p');
    expect((await uploadBytes(t, '12345')).status).toBe(200);
    expect((await uploadBytes(t, '67890')).status).toBe(200);
    expect(t.app.services.store.findTenant('test:acme')?.files.storedBytes).toBe(10);
  });

  it('POST /v1/files/upload counts each tenant apart', async () => {
    const t = quotaApp();
    await project(t, 'p');
    await project(t, 'p', 'test_other');
    expect((await uploadBytes(t, '1234567890')).status).toBe(200);
    expect((await uploadBytes(t, '1234567890', 'test_other')).status).toBe(200);
    expect((await uploadBytes(t, 'x')).status).toBe(413);
  });

  it('POST /v1/files/import holds no bytes and is not counted', async () => {
    const t = quotaApp();
    await project(t, 'p');
    expect((await uploadBytes(t, '1234567890')).status).toBe(200);
    const res = await t.call('POST', '/v1/files/import', {
      body: { file_url: 'https://example.com/big.bin', project_name: 'p' },
    });
    expect(res.status).toBe(200);
    expect(res.body.size).toBeNull();
  });

  it('POST /_mock/reset frees the tenant file bytes', async () => {
    const t = quotaApp();
    await uploadText(t, '1234567890');
    expect((await upload(t, formOf({}, { filename: 'f.txt', content: 'x' }))).status).toBe(413);
    expect((await t.call('POST', '/_mock/reset')).status).toBe(200);
    expect((await upload(t, formOf({}, { filename: 'f.txt', content: 'x' }))).status).toBe(200);
  });

  it('PUT /_mock/state with more file bytes than the quota is a 413 and changes nothing', async () => {
    const t = quotaApp();
    await uploadText(t, 'kept');
    const state = (await t.call('GET', '/_mock/state')).body;
    const content = Buffer.from('0123456789ab');
    const file = {
      ...state.files[0],
      id: 'ffffffffffffffffffffffff',
      size: content.length,
      content_base64: content.toString('base64'),
    };
    const res = await t.call('PUT', '/_mock/state', { body: { ...state, files: [...state.files, file] } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ status_code: 413, error: overMessage(16, 16) });
    expect((await t.call('GET', '/_mock/state')).body.files.map((f: { id: string }) => f.id)).toEqual([
      state.files[0].id,
    ]);
  });

  it('reads --max-file-bytes-per-tenant, then LABELMOCK_MAX_FILE_BYTES_PER_TENANT, default 512 MiB', () => {
    expect(readConfig([], {}).maxFileBytesPerTenant).toBe(DEFAULT_MAX_FILE_BYTES_PER_TENANT);
    expect(DEFAULT_MAX_FILE_BYTES_PER_TENANT).toBe(536_870_912);
    const env = { LABELMOCK_MAX_FILE_BYTES_PER_TENANT: '2000' };
    expect(readConfig(['--max-file-bytes-per-tenant', '1000'], env).maxFileBytesPerTenant).toBe(1000);
    expect(readConfig([], env).maxFileBytesPerTenant).toBe(2000);
    expect(() => readConfig(['--max-file-bytes-per-tenant', 'lots'], {})).toThrow();
  });
});
