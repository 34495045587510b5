import { call, fmtLatency, fmtMs, sampleLatency } from './http.js';
import { type Ctx, imageBody } from './report.js';

/** Item 4 (import): PUT /_mock/state with as many tasks as one import may carry. */
export async function stateImport(ctx: Ctx): Promise<void> {
  const { base } = ctx.server;
  const key = 'test_stress_import';
  await call(base, key, 'POST', '/v1/task/imageannotation', imageBody(ctx.root));
  const seed = (await call(base, key, 'GET', '/_mock/state')).body;
  const one = seed.tasks[0];
  const size = JSON.stringify(one).length + 30;
  // As big as an import may be: under the 5 MB body limit and under 250,000 JSON values per body.
  const count = Math.min(Math.floor((5 * 1024 * 1024 - 2000) / size), Math.floor(240_000 / jsonValues(one)));
  const tasks = Array.from({ length: count }, (_, i) => ({
    ...one,
    task: { ...one.task, task_id: i.toString(16).padStart(24, '0') },
  }));
  const body = JSON.stringify({ ...seed, tasks });
  // The first import of a process also pays for compiling the code it runs: reported apart.
  for (const run of ['first', 'third']) {
    if (run === 'third') for (let i = 0; i < 2; i += 1) await call(base, key, 'PUT', '/_mock/state', body);
    await ctx.server.probe();
    const put = await sampleLatency(base, () => call(base, key, 'PUT', '/_mock/state', body));
    const loop = (await ctx.server.probe()).loopMaxMs;
    const figure =
      `${put.result.status} in ${fmtMs(put.result.ms)}; ` + `loop stall ${fmtMs(loop)}; ${fmtLatency(put.latency)}`;
    ctx.row('4', `PUT /_mock/state of ${(body.length / 1e6).toFixed(1)} MB (${count} tasks), ${run} time`, figure);
  }
}

/** Objects, arrays, strings, numbers, booleans and nulls in a JSON value, as the import's budget counts them. */
function jsonValues(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.reduce((n: number, item) => n + jsonValues(item), 0);
  if (value && typeof value === 'object')
    return 1 + Object.values(value).reduce((n: number, item) => n + jsonValues(item), 0);
  return 1;
}
