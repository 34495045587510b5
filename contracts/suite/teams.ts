import {
  contract,
  eventually,
  expectEqual,
  expectErrorBody,
  expectStatus,
  expectTrue,
  expectType,
} from '../kit/contract.js';
import { createStudioProject, expectTeammate, findMember, freshEmail, joinedTeammate } from '../kit/studio.js';

/** Teams: the teammate list, invitations and role changes. */

contract('GET /v1/teams answers an array of teammates with e-mail and role, an admin among them', async (ctx) => {
  const res = await ctx.api.get('/v1/teams');
  expectStatus(res, 200);
  expectType(res.body, 'array', 'team');
  res.body.forEach((member: unknown, i: number) => {
    expectTeammate(member, `team[${i}]`);
  });
  expectTrue(
    res.body.some((m: { role: string }) => m.role === 'admin'),
    'team lists an admin',
  );
});

contract('POST /v1/teams/invite answers the whole team, the invitee with role invited and an expiry', async (ctx) => {
  const email = freshEmail(ctx, 'invitee');
  const res = await ctx.api.post('/v1/teams/invite', { emails: [email], team_role: 'member' });
  expectStatus(res, 200);
  expectType(res.body, 'array', 'team');
  const invitee = findMember(res.body, email);
  expectEqual(invitee?.role, 'invited', `role of ${email}`);
  expectType(invitee.expiry, 'string', 'expiry of the invitee');
  // Polled up to --wait: a real service's lists may lag behind its writes.
  await eventually(async () =>
    expectTrue(findMember((await ctx.api.get('/v1/teams')).body, email), 'GET /v1/teams lists the invitee'),
  );
});

contract('POST /v1/teams/invite with a malformed e-mail, an unknown role or no emails answers 400', async (ctx) => {
  expectErrorBody(
    await ctx.api.post('/v1/teams/invite', { emails: ['not-an-email'], team_role: 'member' }),
    400,
    'emails',
  );
  expectErrorBody(
    await ctx.api.post('/v1/teams/invite', { emails: [freshEmail(ctx)], team_role: 'owner' }),
    400,
    'team_role',
  );
  expectErrorBody(await ctx.api.post('/v1/teams/invite', { team_role: 'member' }), 400, 'emails');
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
  expectStatus(res, 200);
  expectEqual(findMember(res.body, email)?.role, 'manager', `role of ${email}`);
  const disabled = await ctx.api.post('/v1/teams/set_role', { emails: [email], team_role: 'disabled' });
  expectEqual(findMember(disabled.body, email)?.role, 'disabled', `role of ${email} after disabling`);
});

contract(
  'POST /v1/teams/set_role refuses administrators (400), unknown addresses (404) and unknown roles (400)',
  async (ctx) => {
    const team = (await ctx.api.get('/v1/teams')).body;
    const admin = team.find((m: { role: string }) => m.role === 'admin');
    expectErrorBody(
      await ctx.api.post('/v1/teams/set_role', { emails: [admin.email], team_role: 'member' }),
      400,
      'administrator',
    );
    expectErrorBody(
      await ctx.api.post('/v1/teams/set_role', { emails: [freshEmail(ctx, 'ghost')], team_role: 'member' }),
      404,
    );
    expectErrorBody(
      await ctx.api.post('/v1/teams/set_role', { emails: [admin.email], team_role: 'owner' }),
      400,
      'team_role',
    );
  },
);

contract('POST /v1/teams/set_role of an invitee who has not accepted answers 400', async (ctx) => {
  const email = freshEmail(ctx, 'pending');
  expectStatus(await ctx.api.post('/v1/teams/invite', { emails: [email], team_role: 'member' }), 200);
  expectErrorBody(await ctx.api.post('/v1/teams/set_role', { emails: [email], team_role: 'manager' }), 400, email);
});
