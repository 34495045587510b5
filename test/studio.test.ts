import { describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from './helpers.js';

/** A Studio account: two Studio projects, a plain one, and active labelers ann and bob. */
async function studio(t: TestApp) {
  for (const [name, studio] of [
    ['signs', true],
    ['lights', true],
    ['plain', false],
  ] as const) {
    await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name, studio } });
  }
  await t.call('POST', '/v1/teams/invite', {
    body: { emails: ['ann@example.com', 'bob@example.com'], team_role: 'labeler' },
  });
  await t.call('POST', '/_mock/teams/accept', { body: { emails: ['ann@example.com', 'bob@example.com'] } });
}
const assign = (t: TestApp, emails: string[], projects: string[]) =>
  t.call('POST', '/v1/studio/assignments/add', { body: { emails, projects } });
const unassign = (t: TestApp, body: Record<string, unknown>) =>
  t.call('POST', '/v1/studio/assignments/remove', { body });
const createGroup = (t: TestApp, project: string, name: string, emails: string[]) =>
  t.call('POST', `/v1/studio/projects/${project}/groups`, { body: { name, emails } });

describe('studio assignments', () => {
  it('GET /v1/studio/assignments lists active teammates and their projects, not invited or disabled', async () => {
    const t = makeApp();
    await studio(t);
    await t.call('POST', '/v1/teams/invite', { body: { emails: ['new@example.com'], team_role: 'member' } });
    await t.call('POST', '/v1/teams/set_role', { body: { emails: ['bob@example.com'], team_role: 'disabled' } });
    const res = await t.call('GET', '/v1/studio/assignments');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ 'acme@labelmock.test': [], 'ann@example.com': [] });
  });

  it('POST /v1/studio/assignments/add and /remove answer the whole map', async () => {
    const t = makeApp();
    await studio(t);
    const added = await assign(t, ['ann@example.com', 'bob@example.com'], ['signs', 'lights']);
    expect(added.status).toBe(200);
    expect(added.body).toEqual({
      'acme@labelmock.test': [],
      'ann@example.com': ['signs', 'lights'],
      'bob@example.com': ['signs', 'lights'],
    });
    const removed = await unassign(t, { emails: ['ann@example.com'], projects: ['signs'] });
    expect(removed.body['ann@example.com']).toEqual(['lights']);
    const all = await unassign(t, { emails: ['bob@example.com'] });
    expect(all.body['bob@example.com']).toEqual([]);
    expect((await t.call('GET', '/v1/studio/assignments')).body).toEqual(all.body);
  });

  const refusals: [string, string[], string[], number, RegExp][] = [
    [
      'an unknown teammate',
      ['ghost@example.com'],
      ['signs'],
      404,
      /"emails\[0\]" ghost@example.com is not on the team/,
    ],
    ['a malformed address', ['ann'], ['signs'], 400, /"emails\[0\]" must be an e-mail address/],
    ['an unknown project', ['ann@example.com'], ['signs', 'nope'], 404, /Project "nope" not found/],
    [
      'a project that is not Studio',
      ['ann@example.com'],
      ['plain'],
      400,
      /"projects\[0\]" names project "plain", which is not a Studio project/,
    ],
    ['no projects', ['ann@example.com'], [], 400, /"projects" must have at least 1 item/],
  ];
  for (const [what, emails, projects, status, message] of refusals) {
    it(`POST /v1/studio/assignments/add with ${what} answers ${status} and assigns nobody`, async () => {
      const t = makeApp();
      await studio(t);
      const res = await assign(t, emails, projects);
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ status_code: status, error: expect.stringMatching(message) });
      expect((await t.call('GET', '/v1/studio/assignments')).body['ann@example.com']).toEqual([]);
    });
  }

  it('POST /v1/studio/assignments/add refuses an invitee who has not joined and a disabled teammate', async () => {
    const t = makeApp();
    await studio(t);
    await t.call('POST', '/v1/teams/invite', { body: { emails: ['new@example.com'], team_role: 'member' } });
    const invited = await assign(t, ['new@example.com'], ['signs']);
    expect(invited.status).toBe(400);
    expect(invited.body.error).toMatch(/new@example.com has not accepted the invitation yet/);
    await t.call('POST', '/v1/teams/set_role', { body: { emails: ['bob@example.com'], team_role: 'disabled' } });
    const disabled = await assign(t, ['bob@example.com'], ['signs']);
    expect(disabled.body.error).toMatch(/bob@example.com is disabled/);
  });
});

describe('labeler groups', () => {
  it('POST /v1/studio/projects/{project}/groups creates a group of assigned teammates; GET lists it', async () => {
    const t = makeApp();
    await studio(t);
    await assign(t, ['ann@example.com', 'bob@example.com'], ['signs']);
    const res = await createGroup(t, 'signs', 'night', ['ann@example.com']);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'night',
      numWorkers: 1,
      isSingleton: false,
      workers: [{ id: expect.stringMatching(/^[0-9a-f]{24}$/), email: 'ann@example.com' }],
    });
    const list = await t.call('GET', '/v1/studio/projects/signs/groups');
    expect(list.body).toEqual([res.body]);
    expect((await t.call('GET', '/v1/studio/projects/lights/groups')).body).toEqual([]);
  });

  it('PUT and POST /v1/studio/projects/{project}/groups/{group} add and remove members', async () => {
    const t = makeApp();
    await studio(t);
    await assign(t, ['ann@example.com', 'bob@example.com'], ['signs']);
    await createGroup(t, 'signs', 'night', ['ann@example.com']);
    const put = await t.call('PUT', '/v1/studio/projects/signs/groups/night', {
      body: { add_emails: ['bob@example.com'], remove_emails: ['ann@example.com'] },
    });
    expect(put.status).toBe(200);
    expect(put.body.workers.map((w: { email: string }) => w.email)).toEqual(['bob@example.com']);
    const post = await t.call('POST', '/v1/studio/projects/signs/groups/night', {
      body: { add_emails: ['ann@example.com'] },
    });
    expect(post.body).toMatchObject({ numWorkers: 2 });
  });

  it('the TypeScript SDK paths (trailing slash, double slash) and encoded names reach the same routes', async () => {
    const t = makeApp();
    await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name: 'a/b c', studio: true } });
    await t.call('POST', '/v1/teams/invite', { body: { emails: ['ann@example.com'], team_role: 'member' } });
    await t.call('POST', '/_mock/teams/accept', { body: { emails: ['ann@example.com'] } });
    await assign(t, ['ann@example.com'], ['a/b c']);
    const created = await t.call('POST', '/v1/studio/projects/a%2Fb%20c/groups/', {
      body: { name: 'day', emails: [] },
    });
    expect(created.status).toBe(200);
    const updated = await t.call('PUT', '/v1/studio/projects/a%2Fb%20c/groups//day', {
      body: { add_emails: ['ann@example.com'] },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.numWorkers).toBe(1);
  });

  const refusals: [string, (t: TestApp) => Promise<{ status: number; body: any }>, number, RegExp][] = [
    [
      'a used group name',
      async (t) => {
        await createGroup(t, 'signs', 'night', []);
        return createGroup(t, 'signs', 'night', []);
      },
      409,
      /A labeler group named "night" already exists in project "signs"/,
    ],
    [
      'a member not assigned to the project',
      (t) => createGroup(t, 'lights', 'x', ['ann@example.com']),
      400,
      /"emails\[0\]" ann@example.com is not assigned to project "lights"/,
    ],
    ['a name with @', (t) => createGroup(t, 'signs', 'a@b', []), 400, /"name" must not contain "@"/],
    ['an unknown project', (t) => t.call('GET', '/v1/studio/projects/nope/groups'), 404, /Project "nope" not found/],
    [
      'a project that is not Studio',
      (t) => t.call('GET', '/v1/studio/projects/plain/groups'),
      400,
      /which is not a Studio project/,
    ],
    [
      'an unknown group',
      (t) => t.call('PUT', '/v1/studio/projects/signs/groups/nope', { body: { add_emails: [] } }),
      404,
      /Labeler group "nope" not found in project "signs"/,
    ],
    [
      'an unknown teammate to add',
      async (t) => {
        await createGroup(t, 'signs', 'night', []);
        return t.call('PUT', '/v1/studio/projects/signs/groups/night', { body: { add_emails: ['ghost@example.com'] } });
      },
      404,
      /"add_emails\[0\]" ghost@example.com is not on the team/,
    ],
  ];
  for (const [what, run, status, message] of refusals) {
    it(`labeler groups: ${what} answers ${status}`, async () => {
      const t = makeApp();
      await studio(t);
      await assign(t, ['ann@example.com'], ['signs']);
      const res = await run(t);
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ status_code: status, error: expect.stringMatching(message) });
    });
  }

  it("unassigning a teammate takes them out of the project's groups; disabling does too", async () => {
    const t = makeApp();
    await studio(t);
    await assign(t, ['ann@example.com', 'bob@example.com'], ['signs']);
    await createGroup(t, 'signs', 'night', ['ann@example.com', 'bob@example.com']);
    await unassign(t, { emails: ['ann@example.com'], projects: ['signs'] });
    await t.call('POST', '/v1/teams/set_role', { body: { emails: ['bob@example.com'], team_role: 'disabled' } });
    const [group] = (await t.call('GET', '/v1/studio/projects/signs/groups')).body;
    expect(group).toMatchObject({ name: 'night', numWorkers: 0, workers: [] });
  });
});
