import { describe, expect, it } from 'vitest';
import { createImageTask, makeApp } from './helpers.js';

const MAX = 100 * 365 * 86_400_000;
const TEN_YEARS = 10 * 365 * 86_400_000;
const RANGE = `between 0 and ${MAX} ms (100 years)`;

async function emptyState(t: ReturnType<typeof makeApp>) {
  return (await t.call('GET', '/_mock/state')).body;
}

describe('virtual clock bounds', () => {
  it('PUT /_mock/state refuses a clock_offset_ms past 100 years, naming the field and the range', async () => {
    const t = makeApp();
    const state = await emptyState(t);
    const res = await t.call('PUT', '/_mock/state', { body: { ...state, clock_offset_ms: MAX + 1 } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status_code: 400,
      error: `Parameter is invalid, reason: "clock_offset_ms" must be ${RANGE}`,
    });
    expect((await t.call('PUT', '/_mock/state', { body: { ...state, clock_offset_ms: 9e15 } })).body.error).toBe(
      res.body.error,
    );
  });

  it('PUT /_mock/state at exactly 100 years ahead keeps the clock and task creation working', async () => {
    const t = makeApp();
    const state = await emptyState(t);
    expect((await t.call('PUT', '/_mock/state', { body: { ...state, clock_offset_ms: MAX } })).status).toBe(200);
    expect((await t.call('PUT', '/_mock/state', { body: { ...state, clock_offset_ms: 9e15 } })).status).toBe(400);
    const clock = await t.call('GET', '/_mock/clock');
    expect(clock.status).toBe(200);
    expect(clock.body).toEqual({
      now: '2125-12-08T00:00:00.000Z',
      now_ms: Date.parse('2125-12-08T00:00:00.000Z'),
      offset_ms: MAX,
    });
    expect((await createImageTask(t)).created_at).toBe('2125-12-08T00:00:00.000Z');
  });

  it('POST /_mock/clock/advance refuses a step past the range and moves nothing', async () => {
    const t = makeApp();
    for (let i = 0; i < 10; i += 1)
      expect((await t.call('POST', '/_mock/clock/advance', { body: { ms: TEN_YEARS } })).status).toBe(200);
    const res = await t.call('POST', '/_mock/clock/advance', { body: { ms: 1 } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status_code: 400,
      error:
        `Parameter is invalid, reason: "ms" must be at most 0 here: ` +
        `the clock offset (now ${MAX}) must stay ${RANGE}`,
    });
    expect((await t.call('GET', '/_mock/clock')).body.offset_ms).toBe(MAX);
  });

  it('POST /_mock/clock/advance names the room left when a step would overshoot', async () => {
    const t = makeApp();
    const state = await emptyState(t);
    await t.call('PUT', '/_mock/state', { body: { ...state, clock_offset_ms: MAX - 5000 } });
    const res = await t.call('POST', '/_mock/clock/advance', { body: { ms: 5001 } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(
      `Parameter is invalid, reason: "ms" must be at most 5000 here: ` +
        `the clock offset (now ${MAX - 5000}) must stay ${RANGE}`,
    );
    const ok = await t.call('POST', '/_mock/clock/advance', { body: { ms: 5000 } });
    expect(ok.status).toBe(200);
    expect(ok.body.offset_ms).toBe(MAX);
  });
});
