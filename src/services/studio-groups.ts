import type { LabelerGroup } from '../domain/studio/schemas.js';
import { alreadyExists, invalidParameter, notFound } from '../errors/index.js';
import type { IdGenerator } from '../runtime/ids.js';
import type { GroupRecord } from '../store/studio.js';
import { emailKey, type MemberRecord } from '../store/team.js';
import type { Tenant } from '../store/tenant.js';
import { requireActiveMembers } from './studio-assignments.js';
import { requireStudioProject } from './studio-projects.js';
import { type FieldAt, indexed } from './team.js';

function viewGroup(tenant: Tenant, group: GroupRecord): LabelerGroup {
  const workers = [...group.members].flatMap((key) => {
    const member = tenant.team.get(key);
    return member ? [{ id: member.id, email: member.email }] : [];
  });
  return { id: group.id, name: group.name, numWorkers: workers.length, isSingleton: group.isSingleton, workers };
}

export function listGroups(tenant: Tenant, project: string): LabelerGroup[] {
  requireStudioProject(tenant, project);
  return [...tenant.studio.groupsOf(project).values()].map((group) => viewGroup(tenant, group));
}

/** Studio rule: a member of a project's group must be assigned to that project. */
function requireProjectMembers(tenant: Tenant, project: string, emails: string[], fieldAt: FieldAt): MemberRecord[] {
  const members = requireActiveMembers(tenant, emails, fieldAt);
  members.forEach((member, index) => {
    if (!member.projects.has(project)) {
      throw invalidParameter(
        fieldAt(index),
        `${member.email} is not assigned to project "${project}" (assign with POST /v1/studio/assignments/add)`,
      );
    }
  });
  return members;
}

export function createGroup(
  tenant: Tenant,
  ids: IdGenerator,
  project: string,
  name: string,
  emails: string[],
): LabelerGroup {
  requireStudioProject(tenant, project);
  const groups = tenant.studio.groupsOf(project);
  if (groups.has(name)) throw alreadyExists('labeler group', name, `project "${project}"`);
  const members = requireProjectMembers(tenant, project, emails, indexed('emails'));
  const group: GroupRecord = {
    id: ids.next(),
    name,
    isSingleton: false,
    members: new Set(members.map((m) => emailKey(m.email))),
  };
  groups.set(name, group);
  return viewGroup(tenant, group);
}

function requireGroup(tenant: Tenant, project: string, name: string): GroupRecord {
  const group = tenant.studio.groupsOf(project).get(name);
  if (!group) throw notFound('Labeler group', name, `project "${project}"`);
  return group;
}

/** Adds and removes members; removing someone who is not in the group changes nothing. */
export function updateGroup(
  tenant: Tenant,
  project: string,
  name: string,
  add: string[],
  remove: string[],
): LabelerGroup {
  requireStudioProject(tenant, project);
  const group = requireGroup(tenant, project, name);
  if (group.isSingleton) {
    throw invalidParameter('group', `"${name}" is a single-member group; its member is fixed by its e-mail name`);
  }
  const added = requireProjectMembers(tenant, project, add, indexed('add_emails'));
  for (const email of remove) group.members.delete(emailKey(email));
  for (const member of added) group.members.add(emailKey(member.email));
  return viewGroup(tenant, group);
}

/** The group of one for a member named by e-mail, made on first use. */
export function singletonGroup(
  tenant: Tenant,
  ids: IdGenerator,
  project: string,
  email: string,
  field: string,
): GroupRecord {
  // biome-ignore lint/style/noNonNullAssertion: one member per email given, or it throws
  const member = requireProjectMembers(tenant, project, [email], () => field)[0]!;
  const groups = tenant.studio.groupsOf(project);
  const name = member.email;
  let group = groups.get(name);
  if (!group) {
    group = { id: ids.next(), name, isSingleton: true, members: new Set([emailKey(member.email)]) };
    groups.set(name, group);
  }
  return group;
}
