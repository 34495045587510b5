import { call, fmtMs, pool } from './http.js';
import { type Ctx, imageBody } from './report.js';

const MANY = 20_000;

async function median(base: string, key: string, path: string): Promise<{ ms: number; status: number }> {
  const times: number[] = [];
  let status = 0;
  for (let i = 0; i < 15; i += 1) {
    const answer = await call(base, key, 'GET', path);
    status = answer.status;
    times.push(answer.ms);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)] ?? Number.NaN, status };
}

/** Item 8: a task-list page with a time filter that matches nothing, 10 vs 20,000 tasks stored. */
export async function timeFilters(ctx: Ctx): Promise<void> {
  const { base } = ctx.server;
  const body = JSON.stringify(imageBody(ctx.root));
  await pool([...Array(10).keys()], 5, () => call(base, 'test_stress_few', 'POST', '/v1/task/imageannotation', body));
  const started = performance.now();
  const made = await pool([...Array(MANY).keys()], 32, () =>
    call(base, 'test_stress_many', 'POST', '/v1/task/imageannotation', body),
  );
  const rate = MANY / ((performance.now() - started) / 1000);
  ctx.row(
    '8',
    `${MANY} creates over HTTP, 32 at a time`,
    `${made.filter((a) => a.status === 200).length} x 200, ${Math.round(rate)} per second`,
  );
  const future = '2999-01-01T00:00:00Z';
  const past = '2000-01-01T00:00:00Z';
  const filters = [`start_time=${future}`, `updated_after=${future}`, `completed_after=${past}`, `end_time=${past}`];
  for (const filter of filters) {
    const path = `/v1/tasks?${filter}&limit=100`;
    const few = await median(base, 'test_stress_few', path);
    const many = await median(base, 'test_stress_many', path);
    ctx.row(
      '8',
      `GET /v1/tasks?${filter} (no match), median of 15`,
      `10 tasks: ${fmtMs(few.ms)} (${few.status}); ${MANY} tasks: ${fmtMs(many.ms)} (${many.status})`,
    );
  }
}
