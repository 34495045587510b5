import { call } from './http.js';
import { type Ctx, imageBody } from './report.js';

const TEN_YEARS = 10 * 365 * 86_400_000;

/** Item 5: an imported clock of 9e15 ms, and clock advances past any sane range. */
export async function clockBounds(ctx: Ctx): Promise<void> {
  const { base } = ctx.server;
  const key = 'test_stress_clock';
  const state = (await call(base, key, 'GET', '/_mock/state')).body;
  const put = await call(base, key, 'PUT', '/_mock/state', { ...state, clock_offset_ms: 9e15 });
  const clock = await call(base, key, 'GET', '/_mock/clock');
  const create = await call(base, key, 'POST', '/v1/task/imageannotation', imageBody(ctx.root));
  ctx.row(
    '5',
    'PUT /_mock/state clock_offset_ms 9e15, then GET clock / create',
    `${put.status} ${errorOf(put.body)} / ${clock.status} / ${create.status}`,
  );

  const other = 'test_stress_clock2';
  let steps = 0;
  let last: Awaited<ReturnType<typeof call>>;
  do {
    last = await call(base, other, 'POST', '/_mock/clock/advance', { ms: TEN_YEARS });
    if (last.status === 200) steps += 1;
  } while (last.status === 200 && steps < 1000);
  const after = await call(base, other, 'GET', '/_mock/clock');
  const created = await call(base, other, 'POST', '/v1/task/imageannotation', imageBody(ctx.root));
  ctx.row(
    '5',
    'POST /_mock/clock/advance 10 years at a time',
    `${steps} accepted, then ${last.status} ${errorOf(last.body)}; ` +
      `GET clock ${after.status} (${after.body?.now ?? ''}); create ${created.status}`,
  );
}

const errorOf = (body: unknown) =>
  body && typeof body === 'object' && 'error' in body
    ? `"${String((body as { error: unknown }).error).slice(0, 160)}"`
    : '';
