import { describe, expect, it } from 'vitest';
import { randomIds } from '../src/runtime/ids.js';
import { imageRequest, makeApp } from './helpers.js';

describe('task creation hot path', () => {
  it('randomIds gives distinct 24-hex-digit ids across refills of its random pool', () => {
    // 3000 ids draw the pool (1024 ids) three times.
    const ids = Array.from({ length: 3000 }, () => randomIds.next());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('POST /v1/task/imageannotation answers params with the type defaults first, then the given ones', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/task/imageannotation', { body: imageRequest() });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.params).slice(0, 3)).toEqual(['attachment_type', 'attachment', 'geometries']);
  });

  it('POST /v1/task/imageannotation keeps a given attachment_type over the default', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/task/imageannotation', { body: imageRequest({ attachment_type: 'image' }) });
    expect(res.status).toBe(200);
    expect(res.body.params.attachment_type).toBe('image');
  });

  it('POST /v1/task/imageannotation refuses a bad common parameter before storing anything', async () => {
    const t = makeApp();
    const bad = await t.call('POST', '/v1/task/imageannotation', { body: imageRequest({ priority: 15 }) });
    expect(bad.status).toBe(400);
    const list = await t.call('GET', '/v1/tasks');
    expect(list.body.docs).toEqual([]);
  });
});
