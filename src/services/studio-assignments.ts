import { invalidParameter } from '../errors/index.js';
import { isActive, type MemberRecord } from '../store/team.js';
import type { Tenant } from '../store/tenant.js';
import { requireUsableProject } from './projects.js';
import { dropMemberFromProjects, requireStudioProject } from './studio-projects.js';
import { type FieldAt, indexed, requireMembers } from './team.js';

export type Assignments = Record<string, string[]>;

/** Every active teammate (not invited, not disabled) with the Studio projects assigned to them. */
export function listAssignments(tenant: Tenant): Assignments {
  return Object.fromEntries(
    tenant.team
      .all()
      .filter(isActive)
      .map((member) => [member.email, [...member.projects]]),
  );
}

/** Teammates who can take Studio work: on the team, joined, and not disabled. */
export function requireActiveMembers(
  tenant: Tenant,
  emails: string[],
  fieldAt: FieldAt = indexed('emails'),
): MemberRecord[] {
  const members = requireMembers(tenant, emails, fieldAt);
  members.forEach((member, index) => {
    if (!isActive(member)) {
      const why = member.role === 'invited' ? 'has not accepted the invitation yet' : 'is disabled';
      throw invalidParameter(fieldAt(index), `${member.email} ${why}; only active teammates can be assigned`);
    }
  });
  return members;
}

export function addAssignments(tenant: Tenant, emails: string[], projects: string[]): Assignments {
  const members = requireActiveMembers(tenant, emails);
  projects.forEach((name, index) => {
    requireStudioProject(tenant, name, `projects[${index}]`);
  });
  for (const member of members) for (const project of projects) member.projects.add(project);
  return listAssignments(tenant);
}

/** Without `projects`, the members leave every project they were assigned to. */
export function removeAssignments(tenant: Tenant, emails: string[], projects?: string[]): Assignments {
  const members = requireMembers(tenant, emails);
  projects?.forEach((name, index) => {
    requireUsableProject(tenant, name, `projects[${index}]`);
  });
  for (const member of members) dropMemberFromProjects(tenant, member, projects ?? [...member.projects]);
  return listAssignments(tenant);
}
