import { describe, expect, it } from 'vitest';
import { makeApp, STRICT, type TestApp } from './helpers.js';

const OWNER = {
  email: 'acme@labelmock.test',
  role: 'admin',
  firstName: 'Account',
  lastName: 'Owner',
  company: 'acme',
  isStudioLabeler: false,
  disableRapidEmails: false,
};
const DAY = 86_400_000;

const studioProject = (t: TestApp, name = 'signs') =>
  t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name, studio: true } });
const invite = (t: TestApp, emails: unknown, team_role: unknown = 'member') =>
  t.call('POST', '/v1/teams/invite', { body: { emails, team_role } });
const accept = (t: TestApp, emails: string[]) => t.call('POST', '/_mock/teams/accept', { body: { emails } });
const setRole = (t: TestApp, emails: string[], team_role: string) =>
  t.call('POST', '/v1/teams/set_role', { body: { emails, team_role } });

describe('teams', () => {
  it('GET /v1/teams lists the account owner as admin on a fresh account', async () => {
    const t = makeApp();
    const res = await t.call('GET', '/v1/teams');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([OWNER]);
  });

  it('POST /v1/teams/invite adds invitees with role invited and a 7-day expiry; answers the whole team', async () => {
    const t = makeApp();
    const res = await invite(t, ['ann@example.com', 'bob@example.com'], 'manager');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      OWNER,
      {
        email: 'ann@example.com',
        role: 'invited',
        isStudioLabeler: false,
        disableRapidEmails: false,
        expiry: '2026-01-08T00:00:00.000Z',
      },
      {
        email: 'bob@example.com',
        role: 'invited',
        isStudioLabeler: false,
        disableRapidEmails: false,
        expiry: '2026-01-08T00:00:00.000Z',
      },
    ]);
    expect((await t.call('GET', '/v1/teams')).body).toEqual(res.body);
  });

  it("POST /v1/teams/invite accepts the interface's `email` spelling, as an array or one address", async () => {
    const t = makeApp();
    await t.call('POST', '/v1/teams/invite', { body: { email: ['ann@example.com'], team_role: 'member' } });
    const res = await t.call('POST', '/v1/teams/invite', { body: { email: 'bob@example.com', team_role: 'member' } });
    expect(res.status).toBe(200);
    expect(res.body.map((m: { email: string }) => m.email)).toEqual([
      'acme@labelmock.test',
      'ann@example.com',
      'bob@example.com',
    ]);
  });

  it('POST /v1/teams/invite of a labeler needs a Studio project, and marks the invitee a Studio labeler', async () => {
    const t = makeApp();
    const refused = await invite(t, ['lab@example.com'], 'labeler');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/"team_role" labeler is only for Studio accounts/);
    await studioProject(t);
    const res = await invite(t, ['lab@example.com'], 'labeler');
    expect(res.body[1]).toMatchObject({ email: 'lab@example.com', role: 'invited', isStudioLabeler: true });
  });

  const badInvites: [string, Record<string, unknown>, RegExp][] = [
    ['no emails', { team_role: 'member' }, /"emails" is required/],
    ['an empty list', { emails: [], team_role: 'member' }, /"emails" must have at least 1 item/],
    [
      'a malformed address',
      { emails: ['ann@example.com', 'not-an-email'], team_role: 'member' },
      /"emails\[1\]" must be an e-mail address/,
    ],
    [
      'an unknown role',
      { emails: ['ann@example.com'], team_role: 'owner' },
      /"team_role" must be one of "labeler", "member", "manager" \(got "owner"\)/,
    ],
    ['the admin role', { emails: ['ann@example.com'], team_role: 'admin' }, /"team_role" must be one of/],
    [
      'emails and email together',
      { emails: ['a@example.com'], email: 'b@example.com', team_role: 'member' },
      /"email" cannot be given together with emails/,
    ],
    [
      'an unknown field',
      { emails: ['a@example.com'], team_role: 'member', role: 'member' },
      /"role" is not an allowed parameter/,
    ],
  ];
  for (const [what, body, message] of badInvites) {
    it(`POST /v1/teams/invite with ${what} answers 400 and changes nothing`, async () => {
      const t = makeApp(STRICT);
      const res = await t.call('POST', '/v1/teams/invite', { body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status_code: 400, error: expect.stringMatching(message) });
      expect((await t.call('GET', '/v1/teams')).body).toEqual([OWNER]);
    });
  }

  it('POST /v1/teams/invite of someone already on the team answers 400 naming them; nobody is added', async () => {
    const t = makeApp();
    await invite(t, ['ann@example.com']);
    await accept(t, ['ann@example.com']);
    const res = await invite(t, ['new@example.com', 'ANN@example.com']);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/"emails\[1\]" ANN@example.com is already on the team with role member/);
    expect((await t.call('GET', '/v1/teams')).body).toHaveLength(2);
  });

  it('an invitation lapses after 7 days on the virtual clock; inviting again renews it', async () => {
    const t = makeApp();
    await invite(t, ['ann@example.com']);
    await t.call('POST', '/_mock/clock/advance', { body: { ms: 7 * DAY } });
    expect((await t.call('GET', '/v1/teams')).body).toEqual([OWNER]);
    const again = await invite(t, ['ann@example.com']);
    expect(again.body[1].expiry).toBe('2026-01-15T00:00:00.000Z');
  });

  it('POST /_mock/teams/accept gives each invitee the role they were invited with', async () => {
    const t = makeApp();
    await studioProject(t);
    await invite(t, ['lab@example.com'], 'labeler');
    await invite(t, ['man@example.com'], 'manager');
    const res = await accept(t, ['lab@example.com', 'man@example.com']);
    expect(res.status).toBe(200);
    expect(res.body.slice(1)).toEqual([
      { email: 'lab@example.com', role: 'labeler', isStudioLabeler: true, disableRapidEmails: false },
      { email: 'man@example.com', role: 'manager', isStudioLabeler: false, disableRapidEmails: false },
    ]);
    const twice = await accept(t, ['lab@example.com']);
    expect(twice.status).toBe(400);
    expect(twice.body.error).toMatch(/lab@example.com is not invited \(role labeler\)/);
  });

  it('POST /v1/teams/set_role changes roles of members who joined', async () => {
    const t = makeApp();
    await invite(t, ['ann@example.com']);
    await accept(t, ['ann@example.com']);
    const res = await setRole(t, ['ann@example.com'], 'manager');
    expect(res.status).toBe(200);
    expect(res.body[1]).toMatchObject({ email: 'ann@example.com', role: 'manager' });
    const disabled = await setRole(t, ['ann@example.com'], 'disabled');
    expect(disabled.body[1].role).toBe('disabled');
  });

  const badRoles: [string, (t: TestApp) => Promise<unknown>, string[], string, number, RegExp][] = [
    [
      'an administrator',
      async () => {},
      ['acme@labelmock.test'],
      'member',
      400,
      /acme@labelmock.test is an administrator; set_role is for non-administrators only/,
    ],
    [
      'an unknown address',
      async () => {},
      ['ghost@example.com'],
      'member',
      404,
      /"emails\[0\]" ghost@example.com is not on the team/,
    ],
    [
      'an invitee who has not accepted',
      (t) => invite(t, ['ann@example.com']),
      ['ann@example.com'],
      'manager',
      400,
      /has not accepted the invitation yet/,
    ],
    [
      'an unknown role',
      async () => {},
      ['acme@labelmock.test'],
      'owner',
      400,
      /"team_role" must be one of "labeler", "member", "manager", "disabled"/,
    ],
    [
      'labeler without a Studio project',
      async () => {},
      ['acme@labelmock.test'],
      'labeler',
      400,
      /labeler is only for Studio accounts/,
    ],
  ];
  for (const [what, before, emails, role, status, message] of badRoles) {
    it(`POST /v1/teams/set_role for ${what} answers ${status}`, async () => {
      const t = makeApp();
      await before(t);
      const res = await setRole(t, emails, role);
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ status_code: status, error: expect.stringMatching(message) });
    });
  }

  it('teams are per key: another account and the live key of the same account see their own', async () => {
    const t = makeApp();
    await invite(t, ['ann@example.com']);
    expect((await t.call('GET', '/v1/teams', { key: 'test_other' })).body).toEqual([
      { ...OWNER, email: 'other@labelmock.test', company: 'other' },
    ]);
    expect((await t.call('GET', '/v1/teams', { key: 'live_acme' })).body).toEqual([OWNER]);
  });
});
