import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AppEnv } from '../src/http/env.js';
import { toErrorResponse } from '../src/http/error-answer.js';
import { IdempotencyGuard } from '../src/http/idempotency.js';
import { mountRoutes } from '../src/http/mount-routes.js';
import { defineRoute } from '../src/http/route.js';
import { ManualClock } from '../src/runtime/clock.js';
import { Store } from '../src/store/store.js';
import { imageRequest, makeApp } from './helpers.js';

const create = (t: ReturnType<typeof makeApp>, key: string, body: unknown, apiKey?: string) =>
  t.call('POST', '/v1/task/imageannotation', { body, key: apiKey, headers: { 'Idempotency-Key': key } });

describe('Idempotency-Key on task creation', () => {
  // The rules (replay, key order, 409s, stored errors, unique_id, one day) are contracts/suite/idempotency.ts;
  // here: labelmock's own wording, and what only a planted route can show.
  it('POST /v1/task/imageannotation 409 messages name the key and why it was refused', async () => {
    const t = makeApp();
    await create(t, 'k-2', imageRequest());
    const other = await create(t, 'k-2', imageRequest({ priority: 30 }));
    expect([other.status, other.body.error]).toEqual([
      409,
      expect.stringMatching(/Idempotency-Key "k-2" was already used with different parameters/),
    ]);
    const foreign = await create(t, 'k-2', imageRequest(), 'test_someone_else');
    expect([foreign.status, foreign.body.error]).toEqual([
      409,
      expect.stringMatching(/already used by a different user/),
    ]);
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
