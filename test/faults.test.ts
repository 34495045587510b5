import { describe, expect, it } from 'vitest';
import { latencyValue } from '../src/config/latency.js';
import { INJECTABLE_STATUSES, MAX_FAULT_RULES } from '../src/domain/faults/schemas.js';
import { basic, createImageTask, imageRequest, KEY, makeApp, type TestApp } from './helpers.js';

const rule = (t: TestApp, body: Record<string, unknown>, key = KEY) => t.call('POST', '/_mock/faults', { key, body });

async function addRule(t: TestApp, body: Record<string, unknown>) {
  const res = await rule(t, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Statuses of `count` GET /v1/tasks in a row. */
async function statuses(t: TestApp, count: number, path = '/v1/tasks'): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i += 1) out.push((await t.call('GET', path)).status);
  return out;
}

async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const start = performance.now();
  const result = await run();
  return { result, ms: performance.now() - start };
}

describe('fault rules', () => {
  it('POST /_mock/faults answers the rule with its id, probability 1, a drawn seed and no firings', async () => {
    const t = makeApp();
    const res = await rule(t, { path: '/v1/tasks', status: 503 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      path: '/v1/tasks',
      status: 503,
      probability: 1,
      seed: expect.any(Number),
      fired: 0,
    });
  });

  it('POST /_mock/faults whose path (and method) meets no /v1 or /v2 route answers 400 naming path', async () => {
    const t = makeApp();
    const none = await rule(t, { path: '/v1/batch/**', status: 503 });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatch(/"path" matches no route of \/v1 or \/v2/);
    const wrongMethod = await rule(t, { method: 'DELETE', path: '/v1/batches', status: 503 });
    expect(wrongMethod.body.error).toMatch(/matches no DELETE route/);
    expect((await rule(t, { path: '/v1/batches/**', status: 503 })).status).toBe(200);
    expect((await rule(t, { path: '/v2/batch/*', status: 503 })).status).toBe(200);
  });

  it('POST /_mock/faults takes method in any letter case (as the journal filter does), stored upper case', async () => {
    const t = makeApp();
    const res = await rule(t, { method: 'get', path: '/v1/tasks', status: 503, times: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.method).toBe('GET');
    expect((await t.call('POST', '/v1/tasks')).status).not.toBe(503);
    expect((await t.call('GET', '/v1/tasks')).status).toBe(503);
    const bad = await rule(t, { method: 'fetch', path: '/v1/tasks', status: 503 });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/method/);
  });

  it('POST /_mock/faults with a status no /v1 operation documents answers 400 listing the statuses', async () => {
    const t = makeApp();
    const res = await rule(t, { path: '/v1/tasks', status: 418 });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('"status"');
    expect(res.body.error).toContain(INJECTABLE_STATUSES.join(', '));
  });

  it('POST /_mock/faults without status, delay_ms or fault answers 400 naming the three', async () => {
    const t = makeApp();
    const res = await rule(t, { path: '/v1/tasks', probability: 0.5 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/"status".*"delay_ms".*"fault"/);
  });

  it('POST /_mock/faults with both status and fault answers 400 naming both', async () => {
    const t = makeApp();
    const res = await rule(t, { path: '/v1/tasks', status: 500, fault: 'reset' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/"status" and "fault"/);
  });

  it('POST /_mock/faults with error but no status answers 400 naming error', async () => {
    const t = makeApp();
    const res = await rule(t, { path: '/v1/tasks', delay_ms: 10, error: 'boom' });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('"error"');
  });

  it('POST /_mock/faults with a path outside /v1 answers 400 naming path', async () => {
    const t = makeApp();
    const res = await rule(t, { path: '/_mock/clock', status: 500 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/"path" must start with \/v1\//);
  });

  it('POST /_mock/faults with probability 1.5, a negative seed or times 0 answers 400 naming the field', async () => {
    const t = makeApp();
    for (const [field, value] of [
      ['probability', 1.5],
      ['seed', -1],
      ['times', 0],
      ['delay_ms', 60_001],
    ] as const) {
      const res = await rule(t, { path: '/v1/tasks', status: 500, [field]: value });
      expect(res.status, field).toBe(400);
      expect(res.body.error).toContain(`"${field}"`);
    }
  });

  it(`POST /_mock/faults past ${MAX_FAULT_RULES} rules answers 400 and keeps the ${MAX_FAULT_RULES}`, async () => {
    const t = makeApp();
    for (let i = 0; i < MAX_FAULT_RULES; i += 1) await addRule(t, { path: `/v1/task/t${i}`, status: 500 });
    const res = await rule(t, { path: '/v1/tasks', status: 500 });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(`${MAX_FAULT_RULES} fault rules`);
    expect((await t.call('GET', '/_mock/faults')).body.faults).toHaveLength(MAX_FAULT_RULES);
  });

  it('GET /v1/task/{taskId} matching a 503 rule answers 503, Retry-After: 1 and a body naming the rule', async () => {
    const t = makeApp();
    const task = await createImageTask(t);
    const { id } = await addRule(t, { method: 'GET', path: '/v1/task/{taskId}', status: 503 });
    const res = await t.call('GET', `/v1/task/${task.task_id}`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.body).toEqual({ status_code: 503, error: `Injected fault: 503 by rule ${id}` });
  });

  it('GET /v1/tasks matching a 429 rule answers 429 with Retry-After; a 500 rule answers 500 without it', async () => {
    const t = makeApp();
    await addRule(t, { path: '/v1/tasks', status: 429, times: 1 });
    await addRule(t, { path: '/v1/tasks', status: 500, times: 1 });
    const first = await t.call('GET', '/v1/tasks');
    expect([first.status, first.headers.get('retry-after')]).toEqual([429, '1']);
    const second = await t.call('GET', '/v1/tasks');
    expect([second.status, second.headers.get('retry-after')]).toEqual([500, null]);
    expect((await t.call('GET', '/v1/tasks')).status).toBe(200);
  });

  it('GET /v1/tasks matching a rule with error answers that message', async () => {
    const t = makeApp();
    await addRule(t, { path: '/v1/tasks', status: 502, error: 'upstream is down' });
    const res = await t.call('GET', '/v1/tasks');
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ status_code: 502, error: 'upstream is down' });
  });

  it('POST /v1/task/imageannotation faulted by a rule creates nothing; its Idempotency-Key stays unused', async () => {
    const t = makeApp();
    await addRule(t, { method: 'POST', path: '/v1/task/*', status: 500, times: 1 });
    const headers = { 'idempotency-key': 'create-1' };
    const body = imageRequest({ unique_id: 'u-1' });
    const faulted = await t.call('POST', '/v1/task/imageannotation', { body, headers });
    expect(faulted.status).toBe(500);
    expect((await t.call('GET', '/v1/tasks')).body.docs).toEqual([]);
    // The retry with the same key is a first try: it creates the task (no replayed 500, no unique_id conflict).
    const retried = await t.call('POST', '/v1/task/imageannotation', { body, headers });
    expect(retried.status).toBe(200);
    expect((await t.call('GET', '/v1/tasks')).body.docs).toHaveLength(1);
  });

  it('GET /v1/tasks with a times: 2 rule fails twice, then succeeds; the rule shows fired 2, remaining 0', async () => {
    const t = makeApp();
    const { id } = await addRule(t, { path: '/v1/tasks', status: 503, times: 2 });
    expect(await statuses(t, 4)).toEqual([503, 503, 200, 200]);
    const listed = (await t.call('GET', '/_mock/faults')).body.faults;
    expect(listed).toEqual([expect.objectContaining({ id, times: 2, remaining: 0, fired: 2 })]);
  });

  it('GET /v1/tasks is not faulted by a rule for another method, path or tenant', async () => {
    const t = makeApp();
    // Another method on a pattern that covers /v1/tasks (POST /v1/tasks alone is no route: refused).
    await addRule(t, { method: 'POST', path: '/v1/**', status: 500 });
    await addRule(t, { path: '/v1/task/{taskId}', status: 500 });
    await addRule(t, { path: '/v1/projects', status: 500 });
    expect(await statuses(t, 1)).toEqual([200]);
    await rule(t, { path: '/v1/tasks', status: 500 }, 'test_other');
    expect(await statuses(t, 1)).toEqual([200]);
    expect((await t.call('GET', '/v1/tasks', { key: 'test_other' })).status).toBe(500);
  });

  it('GET /_mock/clock is never faulted, even by a rule on /v1/** (faults apply to /v1 only)', async () => {
    const t = makeApp();
    await addRule(t, { path: '/v1/**', status: 500 });
    expect((await t.call('GET', '/_mock/clock')).status).toBe(200);
    expect((await t.call('GET', '/v1/tasks')).status).toBe(500);
  });

  it('GET /v1/tasks with a seeded probability rule fires alike in two apps; another seed differs', async () => {
    const sequence = async (seed: number) => {
      const t = makeApp();
      await addRule(t, { path: '/v1/tasks', status: 500, probability: 0.5, seed });
      return statuses(t, 40);
    };
    const first = await sequence(42);
    expect(await sequence(42)).toEqual(first);
    expect(await sequence(7)).not.toEqual(first);
    // A fair coin: both outcomes occur.
    expect(first).toContain(500);
    expect(first).toContain(200);
  });

  it('GET /v1/tasks with probability 0 is never faulted, and the rule counts no firing', async () => {
    const t = makeApp();
    await addRule(t, { path: '/v1/tasks', status: 500, probability: 0 });
    expect(await statuses(t, 5)).toEqual([200, 200, 200, 200, 200]);
    expect((await t.call('GET', '/_mock/faults')).body.faults[0].fired).toBe(0);
  });

  it('GET /v1/tasks with two matching rules is faulted by the first with firings left, in creation order', async () => {
    const t = makeApp();
    await addRule(t, { path: '/v1/tasks', status: 502, times: 1 });
    await addRule(t, { path: '/v1/**', status: 504, times: 1 });
    expect(await statuses(t, 3)).toEqual([502, 504, 200]);
  });

  it('GET /_mock/faults lists rules in order; DELETE /_mock/faults/{faultId} removes one and answers it', async () => {
    const t = makeApp();
    const a = await addRule(t, { path: '/v1/tasks', status: 500 });
    const b = await addRule(t, { path: '/v1/projects', delay_ms: 5 });
    expect((await t.call('GET', '/_mock/faults')).body).toEqual({ faults: [a, b] });
    const removed = await t.call('DELETE', `/_mock/faults/${a.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual(a);
    expect((await t.call('GET', '/_mock/faults')).body).toEqual({ faults: [b] });
    expect((await t.call('GET', '/v1/tasks')).status).toBe(200);
  });

  it('DELETE /_mock/faults/{faultId} of an unknown rule answers 404 naming it', async () => {
    const t = makeApp();
    const res = await t.call('DELETE', '/_mock/faults/nope');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Fault rule "nope" not found');
  });

  it('DELETE /_mock/faults removes every rule and answers how many', async () => {
    const t = makeApp();
    await addRule(t, { path: '/v1/tasks', status: 500 });
    await addRule(t, { path: '/v1/tasks', status: 503 });
    expect((await t.call('DELETE', '/_mock/faults')).body).toEqual({ deleted: 2 });
    expect((await t.call('GET', '/_mock/faults')).body).toEqual({ faults: [] });
    expect((await t.call('GET', '/v1/tasks')).status).toBe(200);
  });

  it("POST /_mock/reset removes the tenant's fault rules", async () => {
    const t = makeApp();
    await addRule(t, { path: '/v1/tasks', status: 500 });
    expect((await t.call('POST', '/_mock/reset')).status).toBe(200);
    expect((await t.call('GET', '/_mock/faults')).body).toEqual({ faults: [] });
    expect((await t.call('GET', '/v1/tasks')).status).toBe(200);
  });

  it('PUT /_mock/state keeps the fault rules (they are setup, not state)', async () => {
    const t = makeApp();
    const exported = (await t.call('GET', '/_mock/state')).body;
    const a = await addRule(t, { path: '/v1/tasks', status: 500 });
    expect((await t.call('PUT', '/_mock/state', { body: exported })).status).toBe(200);
    expect((await t.call('GET', '/_mock/faults')).body).toEqual({ faults: [a] });
  });

  it('POST /_mock/faults keeps a tenant that holds nothing else (the rules are not dropped with it)', async () => {
    const t = makeApp();
    await addRule(t, { path: '/v1/tasks', status: 500 });
    expect(t.app.services.store.tenantCount).toBe(1);
    expect((await t.call('GET', '/v1/tasks')).status).toBe(500);
  });
});

describe('Labelmock-Fault header', () => {
  it('GET /v1/tasks with Labelmock-Fault: status=500 answers 500 naming the header; the next is served', async () => {
    const t = makeApp();
    const res = await t.call('GET', '/v1/tasks', { headers: { 'Labelmock-Fault': 'status=500' } });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ status_code: 500, error: 'Injected fault: 500 by the Labelmock-Fault header' });
    expect((await t.call('GET', '/v1/tasks')).status).toBe(200);
  });

  it('GET /v1/tasks with Labelmock-Fault: status=503, delay=60 waits, then answers 503 with Retry-After', async () => {
    const t = makeApp();
    const { result, ms } = await timed(() =>
      t.call('GET', '/v1/tasks', { headers: { 'Labelmock-Fault': 'status=503, delay=60' } }),
    );
    expect(result.status).toBe(503);
    expect(result.headers.get('retry-after')).toBe('1');
    expect(ms).toBeGreaterThanOrEqual(55);
  });

  it('GET /v1/tasks with Labelmock-Fault: delay=60 answers 200 after the delay', async () => {
    const t = makeApp();
    const { result, ms } = await timed(() =>
      t.call('GET', '/v1/tasks', { headers: { 'Labelmock-Fault': 'delay=60' } }),
    );
    expect(result.status).toBe(200);
    expect(ms).toBeGreaterThanOrEqual(55);
  });

  it('GET /v1/tasks with a Labelmock-Fault header is faulted by it, not by a rule (no firing counted)', async () => {
    const t = makeApp();
    await addRule(t, { path: '/v1/tasks', status: 502, times: 1 });
    const res = await t.call('GET', '/v1/tasks', { headers: { 'Labelmock-Fault': 'status=504' } });
    expect(res.status).toBe(504);
    expect(await statuses(t, 2)).toEqual([502, 200]);
  });

  it('GET /v1/tasks with a malformed Labelmock-Fault answers 400 naming the header and the part', async () => {
    const t = makeApp();
    const cases: [string, string][] = [
      ['status=418', '"status=418" must be one of 400, 401, 429, 500, 502, 503, 504'],
      ['delay=99999', '"delay=99999" must be an integer number of milliseconds, 0-60000'],
      ['status=500, colour=red', '"colour=red" must be a comma list of status=N, delay=MS, fault=reset|hang and after'],
      ['after=never, status=500', '"after=never" must be commit'],
      ['after=commit', 'after=commit needs status=N or fault=reset|hang'],
      ['fault=explode', '"fault=explode" must be reset or hang'],
      ['', 'must be a comma list'],
      ['status=500, fault=reset', 'cannot name both status and fault'],
    ];
    for (const [header, message] of cases) {
      const res = await t.call('GET', '/v1/tasks', { headers: { 'Labelmock-Fault': header } });
      expect(res.status, header).toBe(400);
      expect(res.body.error, header).toContain('"Labelmock-Fault header"');
      expect(res.body.error, header).toContain(message);
    }
  });

  it('GET /_mock/clock ignores a Labelmock-Fault header', async () => {
    const t = makeApp();
    expect((await t.call('GET', '/_mock/clock', { headers: { 'Labelmock-Fault': 'status=500' } })).status).toBe(200);
  });
});

describe('latency and connection faults in process', () => {
  /** Resolves once the app holds `count` delayed or hanging requests: they are waiting, not yet answered. */
  const held = (t: TestApp, count = 1) => expect.poll(() => t.app.services.events.held.count).toBe(count);

  it('GET /v1/tasks matching a delay_ms rule waits; others go on; disposing the app ends the wait', async () => {
    const t = makeApp();
    await addRule(t, { path: '/v1/tasks', delay_ms: 60_000 });
    let settled = false;
    const slow = t.call('GET', '/v1/tasks').finally(() => {
      settled = true;
    });
    await held(t);
    expect((await t.call('GET', '/v1/projects')).status).toBe(200);
    expect(settled).toBe(false);
    t.app.dispose();
    expect((await slow).status).toBe(200);
  });

  it('GET /v1/tasks on an app with latency 40 ms waits at least 40 ms; GET /_mock/clock never waits', async () => {
    const t = makeApp({ config: { latency: { minMs: 40, maxMs: 40 } } });
    const api = await timed(() => t.call('GET', '/v1/tasks'));
    expect(api.result.status).toBe(200);
    expect(api.ms).toBeGreaterThanOrEqual(35);
    // With a minute of latency, the control plane still answers (a wait would outlast the test).
    const slow = makeApp({ config: { latency: { minMs: 60_000, maxMs: 60_000 } } });
    expect((await slow.call('GET', '/_mock/clock')).status).toBe(200);
    expect(slow.app.services.events.held.count).toBe(0);
    slow.app.dispose();
  });

  it('GET /v1/tasks matching a hang rule gets no answer until the client aborts', async () => {
    const t = makeApp();
    await addRule(t, { path: '/v1/tasks', fault: 'hang' });
    const abort = new AbortController();
    let settled = false;
    const init = { headers: { authorization: basic(KEY) }, signal: abort.signal };
    const pending = Promise.resolve(t.app.request('/v1/tasks', init)).finally(() => {
      settled = true;
    });
    await held(t);
    expect(settled).toBe(false);
    abort.abort();
    // In process there is no socket: the placeholder answer goes to the caller once the hang ends.
    expect((await pending).status).toBe(499);
    expect((await t.call('GET', '/_mock/faults')).body.faults[0].fired).toBe(1);
    await held(t, 0);
  });

  it('GET /v1/tasks matching a hang rule ends when the app is disposed (shutdown is not held up)', async () => {
    const t = makeApp();
    await addRule(t, { path: '/v1/tasks', fault: 'hang' });
    const pending = t.call('GET', '/v1/tasks');
    await held(t);
    t.app.dispose();
    expect((await pending).status).toBe(499);
  });
});

describe('fault paths, statuses and --latency', () => {
  it('every /v1 operation of GET /openapi.json documents every injectable status', async () => {
    const t = makeApp();
    const doc = (await t.call('GET', '/openapi.json', { key: null })).body;
    const missing: string[] = [];
    for (const [path, item] of Object.entries<Record<string, { responses: Record<string, unknown> }>>(doc.paths)) {
      if (!path.startsWith('/v1/')) continue;
      for (const [method, operation] of Object.entries(item))
        for (const status of INJECTABLE_STATUSES)
          if (!(String(status) in operation.responses)) missing.push(`${method} ${path} ${status}`);
    }
    expect(missing).toEqual([]);
  });

  it('--latency reads MS or MIN-MAX and refuses a reversed range, a value over 60000 and words', () => {
    expect(latencyValue.parse('250')).toEqual({ minMs: 250, maxMs: 250 });
    expect(latencyValue.parse('10-200')).toEqual({ minMs: 10, maxMs: 200 });
    expect(latencyValue.parse(30)).toEqual({ minMs: 30, maxMs: 30 });
    for (const bad of ['200-10', '60001', 'slow', '-5', '1.5', ''])
      expect(latencyValue.safeParse(bad).error?.issues[0]?.message, bad).toMatch(/must be MS or MIN-MAX/);
  });
});
