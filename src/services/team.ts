import type { AssignableRole, InviteRole, Teammate } from '../domain/teams/schemas.js';
import { invalidParameter, referenceNotFound } from '../errors/index.js';
import { toIso } from '../runtime/clock.js';
import type { IdGenerator } from '../runtime/ids.js';
import { emailKey, type MemberRecord } from '../store/team.js';
import type { Tenant } from '../store/tenant.js';
import { dropMemberFromProjects } from './studio-projects.js';

/** How long an invitation stays open (virtual clock); a lapsed one leaves the team. */
const INVITATION_TTL_MS = 7 * 86_400_000;

function viewTeammate(member: MemberRecord): Teammate {
  return {
    email: member.email,
    role: member.role,
    ...(member.firstName !== undefined && { firstName: member.firstName }),
    ...(member.lastName !== undefined && { lastName: member.lastName }),
    ...(member.company !== undefined && { company: member.company }),
    isStudioLabeler: member.role === 'labeler' || (member.role === 'invited' && member.invitedRole === 'labeler'),
    disableRapidEmails: false,
    ...(member.role === 'invited' && member.expiryMs !== undefined && { expiry: toIso(member.expiryMs) }),
  };
}

/** Lapsed invitations leave the team, so the address can be invited again. */
function dropLapsedInvitations(tenant: Tenant): void {
  const now = tenant.now();
  for (const member of tenant.team.all()) {
    if (member.role === 'invited' && member.expiryMs !== undefined && member.expiryMs <= now)
      tenant.team.delete(member.email);
  }
}

export function listTeam(tenant: Tenant): Teammate[] {
  dropLapsedInvitations(tenant);
  return tenant.team.all().map(viewTeammate);
}

/** The labeler role exists on Studio accounts only: the tenant needs a Studio project. */
function requireStudioAccount(tenant: Tenant, role: string): void {
  if (role !== 'labeler') return;
  const hasStudio = [...tenant.shared.projects.values()].some((r) => tenant.owns(r) && r.project.studio);
  if (!hasStudio) {
    throw invalidParameter(
      'team_role',
      'labeler is only for Studio accounts; create a project with studio: true first',
    );
  }
}

const unique = (emails: string[]) => [...new Map(emails.map((e) => [emailKey(e), e])).values()];

/** Invites new addresses (role invited, with an expiry); inviting a pending invitee again renews it. */
export function inviteTeammates(tenant: Tenant, ids: IdGenerator, emails: string[], role: InviteRole): Teammate[] {
  requireStudioAccount(tenant, role);
  dropLapsedInvitations(tenant);
  emails.forEach((email, index) => {
    const member = tenant.team.get(email);
    if (member && member.role !== 'invited') {
      throw invalidParameter(
        `emails[${index}]`,
        `${email} is already on the team with role ${member.role}; change roles with POST /v1/teams/set_role`,
      );
    }
  });
  const expiryMs = tenant.now() + INVITATION_TTL_MS;
  for (const email of unique(emails)) {
    const member = tenant.team.get(email);
    if (member) Object.assign(member, { invitedRole: role, expiryMs });
    else
      tenant.team.put({
        id: ids.next(),
        email: email.trim(),
        role: 'invited',
        invitedRole: role,
        expiryMs,
        projects: new Set(),
      });
  }
  return listTeam(tenant);
}

/** Names the field of the index-th address in an error message, e.g. "emails[2]". */
export type FieldAt = (index: number) => string;
export const indexed =
  (field: string): FieldAt =>
  (index) =>
    `${field}[${index}]`;

/** The teammates named, checked before anything changes: unknown addresses are 404s. */
export function requireMembers(tenant: Tenant, emails: string[], fieldAt: FieldAt = indexed('emails')): MemberRecord[] {
  dropLapsedInvitations(tenant);
  return emails.map((email, index) => {
    const member = tenant.team.get(email);
    if (!member) throw referenceNotFound('Teammate', fieldAt(index), `${email} is not on the team`);
    return member;
  });
}

/** Changes the role of non-administrators who have joined; disabling also ends their Studio work. */
export function setTeamRoles(tenant: Tenant, emails: string[], role: AssignableRole): Teammate[] {
  requireStudioAccount(tenant, role);
  const members = requireMembers(tenant, emails);
  members.forEach((member, index) => {
    if (member.role === 'admin')
      throw invalidParameter(
        `emails[${index}]`,
        `${member.email} is an administrator; set_role is for non-administrators only`,
      );
    if (member.role === 'invited') {
      throw invalidParameter(
        `emails[${index}]`,
        `${member.email} has not accepted the invitation yet (the mock accepts it with POST /_mock/teams/accept)`,
      );
    }
  });
  for (const member of members) {
    member.role = role;
    if (role === 'disabled') dropMemberFromProjects(tenant, member, [...member.projects]);
  }
  return listTeam(tenant);
}

/** Plays the invitees: each takes the role they were invited with. */
export function acceptInvitations(tenant: Tenant, emails: string[]): Teammate[] {
  const members = requireMembers(tenant, emails);
  members.forEach((member, index) => {
    if (member.role !== 'invited')
      throw invalidParameter(`emails[${index}]`, `${member.email} is not invited (role ${member.role})`);
  });
  for (const member of members) {
    member.role = member.invitedRole ?? 'member';
    delete member.invitedRole;
    delete member.expiryMs;
  }
  return listTeam(tenant);
}
