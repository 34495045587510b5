import { describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from './helpers.js';

const attempt = (quality_task_id: string, labeler_email: string, extra: Record<string, unknown> = {}) => ({
  quality_task_id,
  labeler_email,
  ...extra,
});
const record = (t: TestApp, attempts: unknown[], key?: string) =>
  t.call('POST', '/_mock/quality/attempts', { key, body: { attempts } });
const list = (t: TestApp, query: string, key?: string) => t.call('GET', `/v1/quality/labelers${query}`, { key });

describe('quality: training attempts', () => {
  it('GET /v1/quality/labelers filters by labeler, newest first', async () => {
    const t = makeApp();
    await record(t, [attempt('q1', 'ann@example.com', { score: 0.5, passed: false })]);
    t.clock.advance(1000);
    await record(t, [
      attempt('q2', 'ann@example.com', { score: 1, passed: true, note: 'kept as given' }),
      attempt('q1', 'bob@example.com'),
    ]);
    const res = await list(t, '?labeler_emails=ANN@example.com');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      docs: [
        {
          quality_task_id: 'q2',
          labeler_email: 'ann@example.com',
          score: 1,
          passed: true,
          note: 'kept as given',
          created_at: '2026-01-01T00:00:01.000Z',
        },
        {
          quality_task_id: 'q1',
          labeler_email: 'ann@example.com',
          score: 0.5,
          passed: false,
          created_at: '2026-01-01T00:00:00.000Z',
        },
      ],
      limit: 100,
      has_more: false,
      next_token: null,
    });
  });

  it('GET /v1/quality/labelers matches any listed quality task, and both lists when both are given', async () => {
    const t = makeApp();
    await record(t, [
      attempt('q1', 'ann@example.com'),
      attempt('q2', 'bob@example.com'),
      attempt('q3', 'ann@example.com'),
    ]);
    const byTasks = await list(t, '?quality_task_ids=q1&quality_task_ids=q2');
    expect(byTasks.body.docs.map((d: { quality_task_id: string }) => d.quality_task_id)).toEqual(['q2', 'q1']);
    const commaJoined = await list(t, '?quality_task_ids=q1,q3');
    expect(commaJoined.body.docs).toHaveLength(2);
    const both = await list(t, '?quality_task_ids=q1,q2&labeler_emails=ann@example.com');
    expect(both.body.docs.map((d: { quality_task_id: string }) => d.quality_task_id)).toEqual(['q1']);
  });

  it('GET /v1/quality/labelers pages by limit and next_token without repeats or gaps', async () => {
    const t = makeApp();
    await record(
      t,
      Array.from({ length: 5 }, (_, i) => attempt(`q${i}`, 'ann@example.com')),
    );
    const seen: string[] = [];
    let query = '?labeler_emails=ann@example.com&limit=2';
    for (let page = 0; page < 5; page += 1) {
      const res = await list(t, query);
      seen.push(...res.body.docs.map((d: { quality_task_id: string }) => d.quality_task_id));
      if (!res.body.has_more) {
        expect(res.body.next_token).toBeNull();
        break;
      }
      query = `?labeler_emails=ann@example.com&limit=2&next_token=${res.body.next_token}`;
    }
    expect(seen).toEqual(['q4', 'q3', 'q2', 'q1', 'q0']);
  });

  const refusals: [string, string, RegExp][] = [
    ['neither filter', '', /"quality_task_ids" or "labeler_emails" is required/],
    ['a limit of 0', '?labeler_emails=a@example.com&limit=0', /"limit" must be at least 1/],
    ['a limit above 100', '?labeler_emails=a@example.com&limit=101', /"limit" must be at most 100/],
    [
      'a foreign next_token',
      '?labeler_emails=a@example.com&next_token=xyz',
      /"next_token" is not a token returned by this server/,
    ],
  ];
  for (const [what, query, message] of refusals) {
    it(`GET /v1/quality/labelers with ${what} answers 400`, async () => {
      const t = makeApp();
      const res = await list(t, query);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status_code: 400, error: expect.stringMatching(message) });
    });
  }

  it('POST /_mock/quality/attempts checks each attempt and records nothing when one is wrong', async () => {
    const t = makeApp();
    const res = await record(t, [attempt('q1', 'ann@example.com'), attempt('q2', 'not-an-email')]);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/"attempts\[1\].labeler_email" must be an e-mail address/);
    expect((await list(t, '?labeler_emails=ann@example.com')).body.docs).toEqual([]);
  });

  it('training attempts are per tenant', async () => {
    const t = makeApp();
    await record(t, [attempt('q1', 'ann@example.com')]);
    expect((await list(t, '?labeler_emails=ann@example.com', 'test_other')).body.docs).toEqual([]);
  });
});
