import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toErrorResponse } from '../src/errors/index.js';
import type { AppEnv } from '../src/http/env.js';
import { IdempotencyGuard } from '../src/http/idempotency.js';
import { mountRoutes } from '../src/http/mount-routes.js';
import { defineRoute } from '../src/http/route.js';
import { ManualClock } from '../src/runtime/clock.js';
import { Store } from '../src/store/store.js';
import { imageRequest, makeApp } from './helpers.js';

const create = (t: ReturnType<typeof makeApp>, key: string, body: unknown, apiKey?: string) =>
  t.call('POST', '/v1/task/imageannotation', { body, key: apiKey, headers: { 'Idempotency-Key': key } });

describe('Idempotency-Key on task creation', () => {
  it('POST /v1/task/imageannotation replays the stored response and creates nothing', async () => {
    const t = makeApp();
    const first = await create(t, 'k-1', imageRequest());
    const second = await create(t, 'k-1', imageRequest());
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect((await t.call('GET', '/v1/tasks')).body.total).toBe(1);
  });

  it('POST /v1/task/imageannotation matches bodies by content, not key order or spacing', async () => {
    const t = makeApp();
    const first = await create(t, 'k-order', {
      geometries: { point: { objects_to_annotate: ['a'] } },
      attachment: 'https://x.test/a.png',
    });
    const raw = '{ "attachment": "https://x.test/a.png",  "geometries": {"point": {"objects_to_annotate": ["a"]}} }';
    const second = await t.call('POST', '/v1/task/imageannotation', { raw, headers: { 'Idempotency-Key': 'k-order' } });
    expect(second.body.task_id).toBe(first.body.task_id);
  });

  it('POST /v1/task/imageannotation stores an error response too and replays it', async () => {
    const t = makeApp();
    const bad = imageRequest({ priority: 11 });
    const first = await create(t, 'k-err', bad);
    expect(first.status).toBe(400);
    const second = await create(t, 'k-err', bad);
    expect(second.status).toBe(400);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });

  it('POST /v1/task/imageannotation with the same key and other parameters is a 409', async () => {
    const t = makeApp();
    await create(t, 'k-2', imageRequest());
    const res = await create(t, 'k-2', imageRequest({ priority: 30 }));
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/Idempotency-Key "k-2" was already used with different parameters/);
  });

  it('POST /v1/task/imageannotation with a key another tenant used is a 409', async () => {
    const t = makeApp();
    await create(t, 'k-3', imageRequest());
    const res = await create(t, 'k-3', imageRequest(), 'test_someone_else');
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/already used by a different user/);
  });

  it('POST /v1/task/imageannotation forgets a key after one day of the virtual clock', async () => {
    const t = makeApp();
    const first = await create(t, 'k-4', imageRequest());
    await t.call('POST', '/_mock/clock/advance', { body: { ms: 24 * 3600 * 1000 - 1 } });
    expect((await create(t, 'k-4', imageRequest())).body.task_id).toBe(first.body.task_id);
    await t.call('POST', '/_mock/clock/advance', { body: { ms: 1 } });
    const later = await create(t, 'k-4', imageRequest());
    expect(later.status).toBe(200);
    expect(later.body.task_id).not.toBe(first.body.task_id);
  });

  it('POST /v1/task/imageannotation combines the key with unique_id', async () => {
    const t = makeApp();
    const first = await create(t, 'k-5', imageRequest({ unique_id: 'u' }));
    const replay = await create(t, 'k-5', imageRequest({ unique_id: 'u' }));
    expect(replay.body.task_id).toBe(first.body.task_id);
    const noKey = await t.call('POST', '/v1/task/imageannotation', { body: imageRequest({ unique_id: 'u' }) });
    expect(noKey.status).toBe(409);
  });

  it('an over-long Idempotency-Key is a 400', async () => {
    const t = makeApp();
    const res = await create(t, 'k'.repeat(256), imageRequest());
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/Idempotency-Key header must be 1 to 255 characters/);
  });

  it('a matching request while the first is still in flight gets a 429', async () => {
    // A route whose handler waits on a promise we control, mounted by the real mounting code.
    const store = new Store(new ManualClock(), { mode: 'manual', delay_ms: 0 });
    const app = new Hono<AppEnv>();
    app.onError(toErrorResponse);
    app.use('*', async (c, next) => {
      c.set('tenant', store.tenant('acme', 'test'));
      await next();
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inHandler = new Promise<void>((resolve) => (entered = resolve));
    const slow = defineRoute({
      method: 'post',
      path: '/slow',
      tag: 'x',
      summary: 'x',
      body: z.object({ n: z.number() }),
      response: z.object({ n: z.number() }),
      errors: [],
      idempotent: true,
      handler: async ({ body }) => {
        entered();
        await gate;
        return body;
      },
    });
    mountRoutes(app, [slow], new IdempotencyGuard(store.idempotency, (key) => store.findTenant(key)));
    const send = () =>
      app.request('/slow', { method: 'POST', body: '{"n":1}', headers: { 'Idempotency-Key': 'busy' } });
    const first = send();
    await inHandler;
    const second = await send();
    expect(second.status).toBe(429);
    expect(await second.json()).toEqual({ status_code: 429, error: expect.stringMatching(/still in progress/) });
    release();
    expect((await first).status).toBe(200);
    const third = await send();
    expect(third.status).toBe(200);
    expect(third.headers.get('idempotent-replayed')).toBe('true');
  });
});
