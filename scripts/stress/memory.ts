import { call, fmtBytes, fmtDelta, pool } from './http.js';
import { type Ctx, imageBody } from './report.js';

const TENANTS = 5000;
const IDEMPOTENT = 500;
const JOURNALED = 3000;

const statuses = (answers: { status: number }[]) => {
  const counts = new Map<number, number>();
  for (const a of answers) counts.set(a.status, (counts.get(a.status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${n} x ${status}`).join(', ');
};

/** Item 6: heap per idle tenant, idempotency memory before and after expiry, the callback journal's length. */
export async function memory(ctx: Ctx): Promise<void> {
  const { base } = ctx.server;
  const start = await ctx.server.probe();
  const touched = await pool([...Array(TENANTS).keys()], 20, (i) =>
    call(base, `test_stress_idle_${i}`, 'GET', '/v1/tasks?limit=1'),
  );
  const tenants = await ctx.server.probe();
  ctx.row(
    '6',
    `${TENANTS} fresh keys, one GET /v1/tasks each (${statuses(touched)})`,
    `heap ${fmtDelta(tenants.heap - start.heap)}, ${fmtBytes((tenants.heap - start.heap) / TENANTS)} per tenant`,
  );

  const key = 'test_stress_idem';
  // Refused bodies (an unknown field) store only the key, the body's fingerprint and a small 400.
  const body = JSON.stringify(imageBody(ctx.root, { bogus: 'x'.repeat(100_000) }));
  const stored = await pool([...Array(IDEMPOTENT).keys()], 10, (i) =>
    call(base, key, 'POST', '/v1/task/imageannotation', body, { 'idempotency-key': `stress-${i}` }),
  );
  const held = await ctx.server.probe();
  await call(base, key, 'POST', '/_mock/clock/advance', { ms: 2 * 86_400_000 });
  const nudge = await call(base, key, 'POST', '/v1/task/imageannotation', imageBody(ctx.root), {
    'idempotency-key': 'stress-after',
  });
  const expired = await ctx.server.probe();
  ctx.row(
    '6',
    `${IDEMPOTENT} Idempotency-Keys with 100 kB bodies (${statuses(stored)}), then 2 days later (${nudge.status})`,
    `heap ${fmtDelta(held.heap - tenants.heap)} while stored; ${fmtDelta(expired.heap - tenants.heap)} after expiry`,
  );

  const journalKey = 'test_stress_journal';
  await call(base, journalKey, 'PATCH', '/_mock/settings', { completion: { mode: 'immediate' } });
  const create = JSON.stringify(imageBody(ctx.root, { callback_url: 'ops@example.com' }));
  const made = await pool([...Array(JOURNALED).keys()], 20, () =>
    call(base, journalKey, 'POST', '/v1/task/imageannotation', create),
  );
  const journal = await call(base, journalKey, 'GET', '/_mock/callbacks');
  const entries = Array.isArray(journal.body?.deliveries) ? journal.body.deliveries.length : journal.status;
  ctx.row(
    '6',
    `${JOURNALED} completed tasks with an e-mail callback (${statuses(made)})`,
    `callback journal holds ${entries} entries`,
  );
}
