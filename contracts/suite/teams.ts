import {
  contract,
  eventually,
  expectEqual,
  expectErrorBody,
  expectStatus,
  expectTrue,
  expectType,
  present,
} from '../kit/contract.js';
import { createStudioProject, expectTeammate, findMember, freshEmail, joinedTeammate } from '../kit/studio.js';

/** Teams: the teammate list, invitations and role changes. */

contract('GET /v1/teams answers an array of teammates with e-mail and role, an admin among them', async (ctx) => {
  const res = await ctx.api.get('/v1/teams');
  expectStatus(res, 200);
  expectType(res.body, 'array', 'team');
  await ctx.rule('each teammate has an e-mail and a role', () =>
    res.body.forEach((member: unknown, i: number) => {
      expectTeammate(member, `team[${i}]`);
    }),
  );
  await ctx.rule('the team lists an admin', () =>
    expectTrue(
      res.body.some((m: { role: string }) => m.role === 'admin'),
      'team lists an admin',
    ),
  );
});

contract('POST /v1/teams/invite adds each invitee with role invited and an expiry', async (ctx) => {
  const email = freshEmail(ctx, 'invitee');
  const res = await ctx.api.post('/v1/teams/invite', { emails: [email], team_role: 'member' });
  expectStatus(res, 200);
  expectType(res.body, 'array', 'team');
  await ctx.rule('the answer lists the invitee with role invited (not the role it will have) and an expiry', () => {
    const invitee = findMember(res.body, email);
    expectEqual(invitee?.role, 'invited', `role of ${email}`);
    expectType(invitee.expiry, 'string', 'expiry of the invitee');
  });
  // Polled up to --wait: a real service's lists may lag behind its writes.
  await ctx.rule('GET /v1/teams lists the invitee with role invited', () =>
    eventually(async () =>
      expectEqual(findMember((await ctx.api.get('/v1/teams')).body, email)?.role, 'invited', `role of ${email}`),
    ),
  );
  // The interface says "an array of team member objects"; that it is the whole team is labelmock's reading.
  await ctx.rule(
    'the answer is the whole team, the admin too',
    () =>
      expectTrue(
        res.body.some((m: { role?: string }) => m.role === 'admin'),
        'the answer lists an admin',
      ),
    'labelmock',
  );
});

contract('POST /v1/teams/invite with a malformed e-mail, an unknown role or no emails answers 400', async (ctx) => {
  // The interface types emails as strings; checking that each is an address is labelmock's choice.
  await ctx.rule(
    'a malformed e-mail answers 400 naming emails',
    async () =>
      expectErrorBody(
        await ctx.api.post('/v1/teams/invite', { emails: ['not-an-email'], team_role: 'member' }),
        400,
        'emails',
      ),
    'labelmock',
  );
  await ctx.rule('an unknown role answers 400 naming team_role', async () =>
    expectErrorBody(
      await ctx.api.post('/v1/teams/invite', { emails: [freshEmail(ctx)], team_role: 'owner' }),
      400,
      'team_role',
    ),
  );
  await ctx.rule('no emails answers 400 naming emails', async () =>
    expectErrorBody(await ctx.api.post('/v1/teams/invite', { team_role: 'member' }), 400, 'emails'),
  );
});

contract('POST /v1/teams/invite of a labeler needs a Studio project on the account', async (ctx) => {
  await createStudioProject(ctx);
  const email = freshEmail(ctx, 'labeler');
  const res = await ctx.api.post('/v1/teams/invite', { emails: [email], team_role: 'labeler' });
  expectStatus(res, 200);
  expectEqual(findMember(res.body, email)?.role, 'invited', 'role of the labeler invitee');
});

contract("POST /v1/teams/set_role changes a teammate's role and answers the whole team", async (ctx) => {
  await ctx.needControlPlane();
  const email = await joinedTeammate(ctx, 'member');
  const res = await ctx.api.post('/v1/teams/set_role', { emails: [email], team_role: 'manager' });
  await ctx.rule('a new role is answered in the whole team', () => {
    expectStatus(res, 200);
    expectEqual(findMember(res.body, email)?.role, 'manager', `role of ${email}`);
  });
  await ctx.rule('role disabled disables the teammate', async () => {
    const disabled = await ctx.api.post('/v1/teams/set_role', { emails: [email], team_role: 'disabled' });
    expectEqual(findMember(disabled.body, email)?.role, 'disabled', `role of ${email} after disabling`);
  });
});

contract(
  'POST /v1/teams/set_role refuses administrators (400), unknown addresses (404) and unknown roles (400)',
  async (ctx) => {
    const team = (await ctx.api.get('/v1/teams')).body;
    const admin = present(
      team.find((m) => m.role === 'admin'),
      'the account admin in GET /v1/teams',
    );
    await ctx.rule("an administrator's role cannot change (400)", async () =>
      expectErrorBody(
        await ctx.api.post('/v1/teams/set_role', { emails: [admin.email], team_role: 'member' }),
        400,
        'administrator',
      ),
    );
    await ctx.rule('an address not on the team answers 404', async () =>
      expectErrorBody(
        await ctx.api.post('/v1/teams/set_role', { emails: [freshEmail(ctx, 'ghost')], team_role: 'member' }),
        404,
      ),
    );
    await ctx.rule('an unknown role answers 400 naming team_role', async () =>
      expectErrorBody(
        await ctx.api.post('/v1/teams/set_role', { emails: [admin.email], team_role: 'owner' }),
        400,
        'team_role',
      ),
    );
  },
);

contract('POST /v1/teams/set_role of an invitee who has not accepted answers 400', async (ctx) => {
  const email = freshEmail(ctx, 'pending');
  expectStatus(await ctx.api.post('/v1/teams/invite', { emails: [email], team_role: 'member' }), 200);
  expectErrorBody(await ctx.api.post('/v1/teams/set_role', { emails: [email], team_role: 'manager' }), 400, email);
});
