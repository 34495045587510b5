import { randomUUID } from 'node:crypto';
import { contract, expectEqual, expectErrorBody, expectMentions, expectStatus, expectTrue } from '../kit/contract.js';
import { statusesOf, withFaultRule } from '../kit/faults.js';
import { createTask, imageTaskBody } from '../kit/tasks.js';

/**
 * Fault rules (POST /_mock/faults) and the Labelmock-Fault header. Every rule is scoped to a task this
 * contract created, so runs sharing an account never fault each other's requests.
 */

contract(
  'POST /_mock/faults with status 429 and times 2: a task read fails twice with Retry-After, then succeeds',
  async (ctx) => {
    const task = await createTask(ctx.api);
    const path = `/v1/task/${task.task_id}`;
    const rule = await withFaultRule(ctx, { method: 'GET', path, status: 429, times: 2 });
    await ctx.rule('the two faulted reads answer 429 with Retry-After and the error body', async () => {
      for (let i = 0; i < 2; i += 1) {
        const res = await ctx.api.get(path, { raw: true });
        expectErrorBody(res, 429, rule.id);
        expectEqual(res.headers.get('retry-after'), '1', 'Retry-After');
      }
    });
    await ctx.rule('the third read is served', async () => expectStatus(await ctx.api.get(path, { raw: true }), 200));
    await ctx.rule('GET /_mock/faults shows the rule fired twice with no firing left', async () => {
      const list = await ctx.api.get('/_mock/faults');
      expectStatus(list, 200);
      const held = list.body.faults.find((f: { id: string }) => f.id === rule.id);
      expectEqual({ fired: held?.fired, remaining: held?.remaining }, { fired: 2, remaining: 0 }, 'the rule');
    });
  },
);

contract('POST /_mock/faults with probability 0.5 and the same seed fires in the same sequence twice', async (ctx) => {
  const [a, b] = [await createTask(ctx.api), await createTask(ctx.api)];
  const rule = { method: 'GET', status: 502, probability: 0.5, seed: 20_231_123 };
  await withFaultRule(ctx, { ...rule, path: `/v1/task/${a.task_id}` });
  await withFaultRule(ctx, { ...rule, path: `/v1/task/${b.task_id}` });
  const first = await statusesOf(ctx.api, `/v1/task/${a.task_id}`, 16);
  const second = await statusesOf(ctx.api, `/v1/task/${b.task_id}`, 16);
  expectEqual(second, first, "the second rule's sequence of statuses");
  expectTrue(first.includes(502) && first.includes(200), `a fair draw both fires and skips: ${first.join(', ')}`);
});

contract(
  'DELETE /_mock/faults/{id} removes a rule: its path is served again; an unknown id answers 404',
  async (ctx) => {
    const task = await createTask(ctx.api);
    const path = `/v1/task/${task.task_id}`;
    const rule = await withFaultRule(ctx, { path, status: 504 });
    expectErrorBody(await ctx.api.get(path, { raw: true }), 504);
    const removed = await ctx.api.delete(`/_mock/faults/${rule.id}`);
    expectStatus(removed, 200);
    expectEqual(removed.body.id, rule.id, 'the removed rule id');
    expectStatus(await ctx.api.get(path, { raw: true }), 200);
    expectErrorBody(await ctx.api.delete(`/_mock/faults/${rule.id}`), 404, rule.id);
  },
);

contract('POST /_mock/faults with a status no /v1 operation documents answers 400 naming status', async (ctx) => {
  const res = await ctx.api.post('/_mock/faults', { path: '/v1/tasks', status: 418 });
  expectErrorBody(res, 400, 'status');
});

contract(
  'GET /v1/task/{id} with Labelmock-Fault: status=504 answers 504 with the error body; the next read is served',
  async (ctx) => {
    const task = await createTask(ctx.api);
    const path = `/v1/task/${task.task_id}`;
    const res = await ctx.api.get(path, { raw: true, headers: { 'Labelmock-Fault': 'status=504' } });
    expectErrorBody(res, 504);
    expectMentions(res.body.error, 'Labelmock-Fault', 'the injected error');
    expectStatus(await ctx.api.get(path, { raw: true }), 200);
  },
  { needs: ['GET /_mock/faults'] },
);

contract(
  'POST /v1/task/imageannotation with Labelmock-Fault: status=502 creates nothing ' +
    'and leaves its Idempotency-Key unused',
  async (ctx) => {
    const key = randomUUID();
    const uniqueId = ctx.unique('fault');
    const faulted = await ctx.api.post('/v1/task/imageannotation', imageTaskBody({ unique_id: uniqueId }), {
      raw: true,
      headers: { 'Idempotency-Key': key, 'Labelmock-Fault': 'status=502' },
    });
    expectErrorBody(faulted, 502);
    await ctx.rule('the unique_id is free: a creation with it (another key) succeeds', async () => {
      const res = await ctx.api.post('/v1/task/imageannotation', imageTaskBody({ unique_id: uniqueId }), {
        headers: { 'Idempotency-Key': randomUUID() },
      });
      expectStatus(res, 200);
    });
    await ctx.rule(
      'the Idempotency-Key is unused: other parameters with it succeed (no 409, no replayed 502)',
      async () => {
        const res = await ctx.api.post('/v1/task/imageannotation', imageTaskBody(), {
          headers: { 'Idempotency-Key': key },
        });
        expectStatus(res, 200);
      },
    );
  },
  { needs: ['GET /_mock/faults'] },
);

contract(
  'GET /v1/task/{id} with Labelmock-Fault: delay=300 answers after at least 300 ms',
  async (ctx) => {
    const task = await createTask(ctx.api);
    const began = Date.now();
    const res = await ctx.api.get(`/v1/task/${task.task_id}`, { headers: { 'Labelmock-Fault': 'delay=300' } });
    expectStatus(res, 200);
    expectTrue(Date.now() - began >= 290, `answered after ${Date.now() - began} ms`);
  },
  { needs: ['GET /_mock/faults'] },
);
