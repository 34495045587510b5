import { describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from './helpers.js';

async function studioAccount(t: TestApp) {
  await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name: 'signs', studio: true } });
  await t.call('POST', '/v1/batches', { body: { project: 'signs', name: 'b1' } });
  await t.call('POST', '/v1/batches', { body: { project: 'signs', name: 'b2' } });
  await t.call('POST', '/v1/teams/invite', {
    body: { emails: ['ann@example.com', 'bob@example.com'], team_role: 'labeler' },
  });
  await t.call('POST', '/_mock/teams/accept', { body: { emails: ['ann@example.com'] } });
  await t.call('POST', '/v1/studio/assignments/add', { body: { emails: ['ann@example.com'], projects: ['signs'] } });
  await t.call('POST', '/v1/studio/projects/signs/groups', { body: { name: 'night', emails: ['ann@example.com'] } });
  await t.call('PUT', '/v1/studio/batches/b1', { body: { groups: ['night', 'ann@example.com'] } });
  await t.call('POST', '/v1/studio/batches/set_priorities', { body: { batches: [{ name: 'b2' }, { name: 'b1' }] } });
  await t.call('POST', '/_mock/quality/attempts', {
    body: { attempts: [{ quality_task_id: 'q1', labeler_email: 'ann@example.com', score: 1 }] },
  });
}

const reads = [
  '/v1/teams',
  '/v1/studio/assignments',
  '/v1/studio/projects/signs/groups',
  '/v1/studio/batches',
  '/v1/quality/labelers?labeler_emails=ann@example.com',
];

describe('/_mock/state: team, Studio and quality', () => {
  it('GET then PUT /_mock/state into another account copies the team, Studio state and training attempts', async () => {
    const t = makeApp();
    await studioAccount(t);
    const state = (await t.call('GET', '/_mock/state')).body;
    expect(state.team.map((m: { email: string; role: string }) => `${m.email}:${m.role}`)).toEqual([
      'acme@labelmock.test:admin',
      'ann@example.com:labeler',
      'bob@example.com:invited',
    ]);
    expect(state.team[2]).toMatchObject({ invited_role: 'labeler', expiry: '2026-01-08T00:00:00.000Z' });
    expect(state.studio.priority_order).toEqual(['b2', 'b1']);
    const before = await Promise.all(reads.map(async (path) => (await t.call('GET', path)).body));
    expect(before.map((body) => (Array.isArray(body) ? body.length : Object.keys(body).length))).toEqual([
      3, 2, 2, 2, 4,
    ]);
    const put = await t.call('PUT', '/_mock/state', { body: state });
    expect(put.status).toBe(200);
    expect(await Promise.all(reads.map(async (path) => (await t.call('GET', path)).body))).toEqual(before);
    // Another app instance: nothing shared but the exported JSON.
    const other = makeApp();
    expect((await other.call('PUT', '/_mock/state', { body: state })).status).toBe(200);
    expect(await Promise.all(reads.map(async (path) => (await other.call('GET', path)).body))).toEqual(before);
  });

  it('PUT /_mock/state seeds training attempts, ordered by created_at', async () => {
    const t = makeApp();
    const base = (await t.call('GET', '/_mock/state')).body;
    const attempts = [
      { quality_task_id: 'q2', labeler_email: 'ann@example.com', created_at: '2026-01-02T00:00:00.000Z', passed: true },
      {
        quality_task_id: 'q1',
        labeler_email: 'ann@example.com',
        created_at: '2026-01-01T00:00:00.000Z',
        passed: false,
      },
    ];
    expect((await t.call('PUT', '/_mock/state', { body: { ...base, training_attempts: attempts } })).status).toBe(200);
    const res = await t.call('GET', '/v1/quality/labelers?quality_task_ids=q1,q2');
    expect(res.body.docs).toEqual(attempts);
  });

  it('a state whose team has no admin gets the account owner', async () => {
    const t = makeApp();
    const base = (await t.call('GET', '/_mock/state')).body;
    await t.call('PUT', '/_mock/state', { body: { ...base, team: [{ email: 'ann@example.com', role: 'member' }] } });
    expect((await t.call('GET', '/v1/teams')).body.map((m: { email: string }) => m.email)).toEqual([
      'acme@labelmock.test',
      'ann@example.com',
    ]);
  });

  const broken: [string, (state: any) => unknown, RegExp][] = [
    [
      'a repeated teammate',
      (s) => ({ ...s, team: [...s.team, { ...s.team[1], email: 'ANN@example.com' }] }),
      /"team\[3\].email" repeats ANN@example.com/,
    ],
    [
      'an assignment to an unknown project',
      (s) => ({ ...s, team: [s.team[0], { ...s.team[1], projects: ['nope'] }] }),
      /"team\[1\].projects\[0\]" "nope" is not among the imported Studio projects/,
    ],
    [
      'a group member not on the team',
      (s) => ({ ...s, studio: { ...s.studio, groups: [{ ...s.studio.groups[0], members: ['ghost@example.com'] }] } }),
      /"studio.groups\[0\].members\[0\]" ghost@example.com is not among the imported team/,
    ],
    [
      'a batch group naming no group',
      (s) => ({ ...s, studio: { ...s.studio, batch_groups: [{ batch: 'b1', groups: ['day'] }] } }),
      /"studio.batch_groups\[0\].groups\[0\]" "day" is not an imported group of project "signs"/,
    ],
    [
      'a priority order naming no batch',
      (s) => ({ ...s, studio: { ...s.studio, priority_order: ['zz'] } }),
      /"studio.priority_order\[0\]" "zz" is not among the imported batches/,
    ],
    [
      'a malformed attempt',
      (s) => ({ ...s, training_attempts: [{ quality_task_id: 'q', labeler_email: 'x', created_at: 'later' }] }),
      /"training_attempts\[0\].labeler_email" must be an e-mail address/,
    ],
  ];
  for (const [what, change, message] of broken) {
    it(`PUT /_mock/state with ${what} answers 400 and keeps the current state`, async () => {
      const t = makeApp();
      await studioAccount(t);
      const state = (await t.call('GET', '/_mock/state')).body;
      const res = await t.call('PUT', '/_mock/state', { body: change(state) });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(message);
      expect((await t.call('GET', '/_mock/state')).body).toEqual(state);
    });
  }
});
