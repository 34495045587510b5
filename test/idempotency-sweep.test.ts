import { afterEach, describe, expect, it, vi } from 'vitest';
import { IDEMPOTENCY_TTL_MS } from '../src/http/idempotency.js';
import { SWEEP_INTERVAL_MS } from '../src/services/sweeper.js';
import { imageRequest, makeApp } from './helpers.js';

type T = ReturnType<typeof makeApp>;
const create = (t: T, key: string, body: unknown = imageRequest(), apiKey?: string) =>
  t.call('POST', '/v1/task/imageannotation', { body, key: apiKey, headers: { 'Idempotency-Key': key } });
const records = (t: T) => t.app.services.store.idempotency.size;
const HOUR_MS = 60 * 60 * 1000;

describe('expired Idempotency-Key records are swept', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('POST /_mock/clock/advance past a day drops the records that expired, and the tasks stay', async () => {
    const t = makeApp();
    for (const key of ['a', 'b', 'c']) expect((await create(t, key)).status).toBe(200);
    expect(records(t)).toBe(3);
    const res = await t.call('POST', '/_mock/clock/advance', { body: { ms: IDEMPOTENCY_TTL_MS } });
    expect(res.status).toBe(200);
    expect(records(t)).toBe(0);
    expect((await t.call('GET', '/v1/tasks')).body.total).toBe(3);
  });

  it('POST /_mock/clock/advance drops only the records that expired, oldest first', async () => {
    const t = makeApp();
    const old = await create(t, 'old');
    await t.call('POST', '/_mock/clock/advance', { body: { ms: 12 * HOUR_MS } });
    const young = await create(t, 'young');
    await t.call('POST', '/_mock/clock/advance', { body: { ms: 12 * HOUR_MS } });
    expect(records(t)).toBe(1);
    const replay = await create(t, 'young');
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.task_id).toBe(young.body.task_id);
    const again = await create(t, 'old');
    expect(again.status).toBe(200);
    expect(again.body.task_id).not.toBe(old.body.task_id);
  });

  it('GET /v1/tasks after a day frees the tenant that held only an error record', async () => {
    const t = makeApp();
    const bad = await create(t, 'bad', imageRequest({ priority: 11 }));
    expect(bad.status).toBe(400);
    expect(t.app.services.store.tenantCount).toBe(1);
    t.clock.advance(IDEMPOTENCY_TTL_MS);
    const res = await t.call('GET', '/v1/tasks');
    expect(res.status).toBe(200);
    expect(records(t)).toBe(0);
    expect(t.app.services.store.tenantCount).toBe(0);
  });

  it('POST /v1/task/imageannotation records of tenants that never come back are swept by the timer', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const t = makeApp();
    expect((await create(t, 'one', imageRequest(), 'test_one')).status).toBe(200);
    expect((await create(t, 'two', imageRequest(), 'test_two')).status).toBe(200);
    t.clock.advance(IDEMPOTENCY_TTL_MS - 1);
    vi.advanceTimersByTime(SWEEP_INTERVAL_MS);
    expect(records(t)).toBe(2);
    t.clock.advance(1);
    vi.advanceTimersByTime(SWEEP_INTERVAL_MS);
    expect(records(t)).toBe(0);
    t.app.dispose();
  });

  it('POST /v1/task/imageannotation stores a digest of the request, not the request', async () => {
    const t = makeApp();
    const res = await create(t, 'big', imageRequest({ instruction: 'x'.repeat(20_000) }));
    expect(res.status).toBe(200);
    const entry = t.app.services.store.idempotency.get('big');
    expect(entry?.fingerprint.length).toBeLessThan(64);
    expect(entry?.body).toBe(JSON.stringify(res.body));
  });

  it("POST /_mock/reset drops the tenant's records and leaves other tenants' records", async () => {
    const t = makeApp();
    await create(t, 'mine');
    await create(t, 'theirs', imageRequest(), 'test_other');
    expect((await t.call('POST', '/_mock/reset')).status).toBe(200);
    expect(records(t)).toBe(1);
    const replay = await create(t, 'theirs', imageRequest(), 'test_other');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });
});
