import type { ContractContext } from './contract.js';
import { expectEqual, expectStatus, expectTrue, expectType, present, setupStep } from './expect.js';
import type { Client } from './target.js';

/** Teams and Studio helpers: fresh addresses, a Studio project, teammates who have joined. */

const TEAM_ROLES = ['admin', 'manager', 'member', 'labeler', 'invited', 'disabled'] as const;

/** A fresh address per call, so runs sharing an account never collide. */
export const freshEmail = (ctx: ContractContext, label = 'teammate'): string =>
  `${ctx.unique(label).toLowerCase()}@example.com`;

/** The path `path` joins: literal parts kept, each name one `/${string}` segment (so a route still types it). */
type Joined<Segments extends readonly string[]> = Segments extends readonly [
  infer Head extends string,
  ...infer Rest extends string[],
]
  ? `${Head extends `/${string}` ? Head : `/${string}`}${Joined<Rest>}`
  : '';

/** A route from literal parts (`/v1/studio/batches`) and names, each name percent-encoded as one segment. */
export const path = <Segments extends string[]>(...segments: Segments): Joined<Segments> =>
  segments.map((s) => (s.startsWith('/') ? s : `/${encodeURIComponent(s)}`)).join('') as Joined<Segments>;

export function expectTeammate(member: unknown, what: string): void {
  expectType(member, 'object', what);
  expectType(member.email, 'string', `${what}.email`);
  expectTrue(
    TEAM_ROLES.some((role) => role === member.role),
    `${what}.role: expected one of ${TEAM_ROLES.join(', ')}, got ${member.role}`,
  );
}

export const findMember = <Member extends { email: string }>(team: readonly Member[], email: string) =>
  team.find((m) => String(m.email).toLowerCase() === email.toLowerCase());

/** A Studio project whose tasks inherit image geometries, so tasks need only an attachment. */
export function createStudioProject(ctx: ContractContext, client: Client = ctx.api): Promise<string> {
  return setupStep('create a Studio project', async () => {
    const name = ctx.unique('studio');
    const res = await client.post('/v1/projects', {
      type: 'imageannotation',
      name,
      studio: true,
      params: { geometries: { box: { objects_to_annotate: ['sign'] } } },
    });
    expectStatus(res, 200);
    return name;
  });
}

/**
 * Teammates who joined: invited, then accepted through the control plane (only the invitee can
 * accept on a real service). Callers check `needControlPlane` first.
 */
function joinedTeammates(ctx: ContractContext, count: number, role = 'labeler'): Promise<string[]> {
  return setupStep(`invite ${count} ${role}(s) and accept through POST /_mock/teams/accept`, () =>
    join(ctx, count, role),
  );
}

/** One teammate who joined with `role` (see joinedTeammates). */
export async function joinedTeammate(ctx: ContractContext, role = 'labeler'): Promise<string> {
  return present((await joinedTeammates(ctx, 1, role))[0], 'the joined teammate');
}

async function join(ctx: ContractContext, count: number, role: string): Promise<string[]> {
  const emails = Array.from({ length: count }, () => freshEmail(ctx));
  expectStatus(await ctx.api.post('/v1/teams/invite', { emails, team_role: role }), 200);
  const accepted = await ctx.api.post('/_mock/teams/accept', { emails });
  expectStatus(accepted, 200);
  for (const email of emails)
    expectEqual(findMember(accepted.body, email)?.role, role, `role of ${email} after accepting`);
  return emails;
}

/** A Studio project with `count` joined labelers assigned to it. */
export async function studioWithLabelers(
  ctx: ContractContext,
  count: number,
): Promise<{ project: string; emails: string[] }> {
  const project = await createStudioProject(ctx);
  const emails = await joinedTeammates(ctx, count);
  await setupStep('assign the labelers to the project', async () =>
    expectStatus(await ctx.api.post('/v1/studio/assignments/add', { emails, projects: [project] }), 200),
  );
  return { project, emails };
}
