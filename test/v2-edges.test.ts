import { describe, expect, it } from 'vitest';
import { makeApp, STRICT } from './helpers.js';

/** v2 at the edge: the same keys, tenants, faults, journal and limits as v1. */

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('v2 edge', () => {
  it('a bearer key (as the v2 client sends it) and a Basic one see the same tenant; no key is a 401', async () => {
    const t = makeApp();
    await t.call('POST', '/v1/projects', { body: { type: 'chat', name: 'p' } });
    const res = await t.app.request('/v2/projects', { headers: bearer('test_acme') });
    expect(((await res.json()) as { projects: unknown[] }).projects).toHaveLength(1);
    expect((await t.call('GET', '/v2/projects', { key: null })).status).toBe(401);
  });

  it("another account's project and batch ids are 404s, as unknown ones are", async () => {
    const t = makeApp();
    await t.call('POST', '/v1/projects', { body: { type: 'chat', name: 'p' } });
    const batch = await t.call('POST', '/v2/batch', { body: { name: 'b', project_name: 'p' } });
    const project = await t.call('GET', '/v2/project?project_name=p');
    const other = { key: 'test_other' };
    expect((await t.call('GET', `/v2/project?project_id=${project.body.id}`, other)).status).toBe(404);
    expect((await t.call('GET', `/v2/batch?batch_id=${batch.body.id}`, other)).status).toBe(404);
    const pause = await t.call('POST', '/v2/batch/pause', { ...other, body: { batch_id: batch.body.id } });
    expect(pause.status).toBe(404);
  });

  it('a fault rule on a /v2 path answers its status there; the request journal holds /v2 requests', async () => {
    const t = makeApp();
    const rule = await t.call('POST', '/_mock/faults', { body: { path: '/v2/projects', status: 503, times: 1 } });
    expect(rule.status, JSON.stringify(rule.body)).toBe(200);
    const faulted = await t.call('GET', '/v2/projects');
    expect(faulted.status).toBe(503);
    expect(faulted.body.status_code).toBe(503);
    expect((await t.call('GET', '/v2/projects')).status).toBe(200);
    const journal = await t.call('GET', '/_mock/requests?path=/v2/projects');
    expect(journal.body.requests.map((r: { status: number }) => r.status)).toEqual([200, 503]);
  });

  it('a query key the operation does not take (strict), or an unknown expand value, is a 400 naming it', async () => {
    const t = makeApp(STRICT);
    const unknown = await t.call('GET', '/v2/projects?colour=red');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/colour/);
    const expand = await t.call('GET', '/v2/task?task_id=x&expand=owner');
    expect(expand.status).toBe(400);
    expect(expand.body.error).toMatch(/expand/);
  });

  it('a merged metadata over 10 KB is a 400 and leaves the batch as it was', async () => {
    const t = makeApp();
    await t.call('POST', '/v1/projects', { body: { type: 'chat', name: 'p' } });
    const half = 'x'.repeat(6000);
    const batch = await t.call('POST', '/v2/batch', { body: { name: 'b', project_name: 'p', metadata: { a: half } } });
    const merged = await t.call('POST', '/v2/batch/metadata', {
      body: { batch_id: batch.body.id, metadata: { b: half }, merge: true },
    });
    expect(merged.status).toBe(400);
    expect(merged.body.error).toMatch(/metadata/);
    expect((await t.call('GET', `/v2/batch?batch_id=${batch.body.id}`)).body.metadata).toEqual({ a: half });
  });

  it('POST /v2/task/chat into a project that is not a chat project is a 400 naming its type', async () => {
    const t = makeApp();
    await t.call('POST', '/v1/projects', { body: { type: 'categorization', name: 'cats' } });
    const res = await t.call('POST', '/v2/task/chat', { body: { project_name: 'cats' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/categorization/);
  });
});
