import { describe, expect, it } from 'vitest';
import { rateWindowOpen } from '../src/store/rate-window.js';
import { createImageTask, makeApp } from './helpers.js';

describe('rate limits and lost answers', () => {
  it('a window that starts after now (the clock moved back) is over for the count and the store', async () => {
    const t = makeApp({ config: { rateLimit: { requests: 1, per_seconds: 10 } } });
    expect((await t.call('GET', '/v1/tasks', { key: 'test_back' })).status).toBe(200);
    const tenant = t.app.services.store.tenant('back', 'test');
    // As an import that set the clock back would leave it: the window began a minute from now.
    tenant.rateWindow = { startMs: tenant.now() + 60_000, used: 1 };
    expect(rateWindowOpen(tenant.rateWindow, tenant.settings.rate_limit, tenant.now())).toBe(false);
    expect((await t.call('GET', '/v1/tasks', { key: 'test_back' })).status).toBe(200);
    expect(tenant.rateWindow?.startMs).toBe(tenant.now());
  });

  it('--rate-limit: a key that only reads keeps its window (its tenant is not dropped) until it ends', async () => {
    const t = makeApp({ config: { rateLimit: { requests: 2, per_seconds: 10 } } });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await t.call('GET', '/v1/tasks', { key: 'test_reader' })).status);
    expect(statuses).toEqual([200, 200, 429]);
    const refused = await t.call('GET', '/v1/tasks', { key: 'test_reader' });
    expect(refused.headers.get('retry-after')).toBe('10');
    expect((await t.call('GET', '/v1/tasks', { key: 'live_reader' })).status).toBe(200);
    t.clock.advance(10_000);
    expect((await t.call('GET', '/v1/tasks', { key: 'test_reader' })).status).toBe(200);
  });

  it('PATCH /_mock/settings rate_limit answers 400 naming the field for a budget of 0 requests', async () => {
    const t = makeApp();
    const res = await t.call('PATCH', '/_mock/settings', { body: { rate_limit: { requests: 0, per_seconds: 1 } } });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('rate_limit.requests');
  });

  it('POST /_mock/faults after: commit with fault reset applies the creation, then drops the answer', async () => {
    const t = makeApp();
    const rule = { path: '/v1/task/imageannotation', fault: 'reset', after: 'commit', times: 1 };
    expect((await t.call('POST', '/_mock/faults', { body: rule })).status).toBe(200);
    await expect(createImageTask(t, { unique_id: 'u-1' })).rejects.toThrow(/create failed: 499/);
    const found = await t.call('GET', '/v1/tasks?unique_id=u-1');
    expect(found.body.docs).toHaveLength(1);
    const bad = await t.call('POST', '/_mock/faults', { body: { path: '/v1/tasks', after: 'commit', delay_ms: 5 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('"after" needs "status" or "fault"');
  });
});
