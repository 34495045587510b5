import { call, fmtLatency, fmtMs, sampleLatency } from './http.js';
import { type Ctx, imageBody } from './report.js';

/** Items 1, 2 and 4 (create): a deeply nested body, a 4 MB metadata object, a 5 MB task creation. */
export async function bigRequests(ctx: Ctx): Promise<void> {
  const { base } = ctx.server;
  const key = 'test_stress_big';
  const task = (await call(base, key, 'POST', '/v1/task/imageannotation', imageBody(ctx.root))).body;
  const taskPath = `/v1/task/${task.task_id}`;

  const deep = `{"x":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_001)}`;
  const set = await call(base, key, 'POST', `${taskPath}/setMetadata`, deep);
  const reads = await Promise.all([taskPath, '/v1/tasks', '/_mock/state'].map((p) => call(base, key, 'GET', p)));
  ctx.row(
    '1',
    'metadata nested 10,000 deep: setMetadata, then GET task / list / state',
    [set.status, ...reads.map((r) => r.status)].join(' / '),
  );

  const wide: Record<string, string> = {};
  for (let i = 0; i < 100_000; i += 1) wide[`k${i}`] = 'v'.repeat(30);
  const wideText = JSON.stringify(wide);
  await ctx.server.probe();
  const widened = await sampleLatency(base, () => call(base, key, 'POST', `${taskPath}/setMetadata`, wideText));
  const wideLoop = (await ctx.server.probe()).loopMaxMs;
  ctx.row(
    '2',
    `setMetadata with 100,000 keys (${(wideText.length / 1e6).toFixed(1)} MB)`,
    `${widened.result.status} in ${fmtMs(widened.result.ms)}; ` +
      `loop stall ${fmtMs(wideLoop)}; ${fmtLatency(widened.latency)}`,
  );

  const create = JSON.stringify(imageBody(ctx.root, { metadata: { pad: 'x'.repeat(5 * 1024 * 1024 - 2000) } }));
  await ctx.server.probe();
  const created = await sampleLatency(base, async () => {
    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push(await call(base, key, 'POST', '/v1/task/imageannotation', create));
    return answers;
  });
  const createLoop = (await ctx.server.probe()).loopMaxMs;
  const statuses = [...new Set(created.result.map((a) => a.status))].join(',');
  ctx.row(
    '4',
    `5 x POST /v1/task/imageannotation of ${(create.length / 1e6).toFixed(1)} MB`,
    `${statuses}, slowest ${fmtMs(Math.max(...created.result.map((a) => a.ms)))}; ` +
      `loop stall ${fmtMs(createLoop)}; ${fmtLatency(created.latency)}`,
  );
}
