import { invalidParameter } from '../errors/index.js';
import type { ProjectRecord } from '../store/account.js';
import { emailKey, type MemberRecord } from '../store/team.js';
import type { Tenant } from '../store/tenant.js';
import { requireUsableProject } from './projects.js';

/** A project of this key's mode made with studio: true, or the 404/400 that says why not. */
export function requireStudioProject(tenant: Tenant, name: string, field = 'project'): ProjectRecord {
  const record = requireUsableProject(tenant, name, field);
  if (!record.project.studio) {
    throw invalidParameter(
      field,
      `names project "${name}", which is not a Studio project (create it with studio: true)`,
    );
  }
  return record;
}

/**
 * Takes a member off projects: the assignment goes, and so does their place in those projects'
 * labeler groups (a group of one goes with its member), as Studio requires members of a
 * project's groups to be assigned to it.
 */
export function dropMemberFromProjects(tenant: Tenant, member: MemberRecord, projects: string[]): void {
  const key = emailKey(member.email);
  for (const project of projects) {
    member.projects.delete(project);
    for (const group of [...tenant.studio.groupsOf(project).values()]) {
      group.members.delete(key);
      if (group.isSingleton && group.members.size === 0) tenant.studio.deleteGroup(project, group.name);
    }
  }
}
