import { contract, expectEqual, expectErrorBody, expectStatus, expectType, present } from '../kit/contract.js';
import { createStudioProject, freshEmail, joinedTeammate, path, studioWithLabelers } from '../kit/studio.js';

/** Studio: assignments and labeler groups. */

const groupsPath = (project: string) => path('/v1/studio/projects', project, '/groups');
const groupPath = (project: string, group: string) => path('/v1/studio/projects', project, '/groups', group);
const emailsOf = (group: { workers: { email: string }[] }) => group.workers.map((w) => w.email).sort();

contract('POST /v1/studio/assignments/add and /remove answer the map of e-mails to projects', async (ctx) => {
  await ctx.needControlPlane();
  const project = await createStudioProject(ctx);
  const email = await joinedTeammate(ctx);
  const added = await ctx.api.post('/v1/studio/assignments/add', { emails: [email], projects: [project] });
  await ctx.rule('add answers the teammate with the project', () => {
    expectStatus(added, 200);
    expectEqual(added.body[email], [project], `projects of ${email}`);
  });
  await ctx.rule('GET /v1/studio/assignments lists the assignment', async () =>
    expectEqual((await ctx.api.get('/v1/studio/assignments')).body[email], [project], 'GET /v1/studio/assignments'),
  );
  await ctx.rule('remove answers the teammate without the project', async () => {
    const removed = await ctx.api.post('/v1/studio/assignments/remove', { emails: [email], projects: [project] });
    expectStatus(removed, 200);
    expectEqual(removed.body[email], [], `projects of ${email} after removal`);
  });
});

contract('GET /v1/studio/assignments leaves out invitees who have not joined', async (ctx) => {
  const email = freshEmail(ctx, 'invitee');
  expectStatus(await ctx.api.post('/v1/teams/invite', { emails: [email], team_role: 'member' }), 200);
  const res = await ctx.api.get('/v1/studio/assignments');
  expectStatus(res, 200);
  expectType(res.body, 'object', 'assignments');
  expectEqual(res.body[email], undefined, `entry for invitee ${email}`);
});

contract(
  'POST /v1/studio/assignments/add refuses unknown teammates (404), invitees (400) and unknown projects (404)',
  async (ctx) => {
    const project = await createStudioProject(ctx);
    await ctx.rule('an address not on the team answers 404', async () =>
      expectErrorBody(
        await ctx.api.post('/v1/studio/assignments/add', { emails: [freshEmail(ctx, 'ghost')], projects: [project] }),
        404,
      ),
    );
    const invitee = freshEmail(ctx, 'invitee');
    expectStatus(await ctx.api.post('/v1/teams/invite', { emails: [invitee], team_role: 'member' }), 200);
    await ctx.rule('an invitee who has not joined answers 400 naming the address', async () =>
      expectErrorBody(
        await ctx.api.post('/v1/studio/assignments/add', { emails: [invitee], projects: [project] }),
        400,
        invitee,
      ),
    );
    const admin = present(
      (await ctx.api.get('/v1/teams')).body.find((m) => m.role === 'admin'),
      'the account admin in GET /v1/teams',
    );
    await ctx.rule('an unknown project answers 404', async () =>
      expectErrorBody(
        await ctx.api.post('/v1/studio/assignments/add', { emails: [admin.email], projects: [ctx.unique('absent')] }),
        404,
      ),
    );
  },
);

contract(
  'POST /v1/studio/projects/{project}/groups creates a group; GET lists it; PUT changes members',
  async (ctx) => {
    await ctx.needControlPlane();
    const { project, emails } = await studioWithLabelers(ctx, 2);
    const name = ctx.unique('group');
    const created = await ctx.api.post(groupsPath(project), { name, emails: [emails[0]] });
    expectStatus(created, 200);
    await ctx.rule('the created group answers its name, members and counts', () => {
      expectEqual(created.body.name, name, 'group name');
      expectEqual(created.body.numWorkers, 1, 'numWorkers');
      expectEqual(created.body.isSingleton, false, 'isSingleton');
      expectEqual(emailsOf(created.body), [emails[0]], 'workers');
    });
    await ctx.rule('GET lists the group', async () => {
      const list = await ctx.api.get(groupsPath(project));
      expectStatus(list, 200);
      expectEqual(
        list.body.map((g) => g.name),
        [name],
        'group names',
      );
    });
    await ctx.rule('PUT adds and removes members', async () => {
      const updated = await ctx.api.put(groupPath(project, name), {
        add_emails: [emails[1]],
        remove_emails: [emails[0]],
      });
      expectStatus(updated, 200);
      expectEqual(emailsOf(updated.body), [emails[1]], 'workers after PUT');
    });
    await ctx.rule('POST to the group adds members too', async () => {
      const viaPost = await ctx.api.post(groupPath(project, name), { add_emails: [emails[0]], remove_emails: [] });
      expectStatus(viaPost, 200);
      expectEqual(emailsOf(viaPost.body), [...emails].sort(), 'workers after POST');
    });
  },
);

contract(
  'labeler groups: a used name is 409, a member not assigned is 400, an unknown group or project is 404',
  async (ctx) => {
    await ctx.needControlPlane();
    const { project } = await studioWithLabelers(ctx, 1);
    const outsider = await joinedTeammate(ctx);
    const name = ctx.unique('group');
    expectStatus(await ctx.api.post(groupsPath(project), { name, emails: [] }), 200);
    await ctx.rule('a used group name answers 409 naming it', async () =>
      expectErrorBody(await ctx.api.post(groupsPath(project), { name, emails: [] }), 409, name),
    );
    await ctx.rule('a member not assigned to the project answers 400 naming the address', async () =>
      expectErrorBody(
        await ctx.api.post(groupsPath(project), { name: ctx.unique('group'), emails: [outsider] }),
        400,
        outsider,
      ),
    );
    await ctx.rule('an unknown group answers 404', async () =>
      expectErrorBody(await ctx.api.put(groupPath(project, ctx.unique('absent')), { add_emails: [] }), 404),
    );
    await ctx.rule('an unknown project answers 404', async () =>
      expectErrorBody(await ctx.api.get(groupsPath(ctx.unique('absent'))), 404),
    );
  },
);
