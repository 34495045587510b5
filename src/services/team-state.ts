import type { State } from '../domain/state/schema.js';
import type { StateStudio, StateTeammate } from '../domain/teams/state.js';
import { invalidParameter } from '../errors/index.js';
import { toIso } from '../runtime/clock.js';
import { derivedId } from '../runtime/ids.js';
import { emailKey, type MemberRecord, ownerRecord, Team } from '../store/team.js';
import type { Tenant } from '../store/tenant.js';

type TeamState = Pick<State, 'team' | 'studio' | 'training_attempts'>;

function exportMember(member: MemberRecord): StateTeammate {
  const { id, email, role, firstName, lastName, company, invitedRole, expiryMs } = member;
  return {
    id,
    email,
    role,
    ...(firstName !== undefined && { firstName }),
    ...(lastName !== undefined && { lastName }),
    ...(company !== undefined && { company }),
    ...(invitedRole !== undefined && { invited_role: invitedRole }),
    ...(expiryMs !== undefined && { expiry: toIso(expiryMs) }),
    projects: [...member.projects],
  };
}

export function exportTeamState(tenant: Tenant): TeamState {
  const studio = tenant.studio;
  const groups = studio.allGroups().flatMap(([project, list]) =>
    list.map((g) => ({
      project,
      name: g.name,
      id: g.id,
      isSingleton: g.isSingleton,
      members: [...g.members].map((key) => tenant.team.get(key)?.email ?? key),
    })),
  );
  return {
    team: tenant.team.all().map(exportMember),
    studio: {
      groups,
      batch_groups: [...studio.batchGroups].map(([batch, a]) => ({ batch, groups: [...a.groups] })),
      priority_order: studio.priorityOrder ?? null,
    },
    training_attempts: tenant.training.all().map((a) => structuredClone(a)),
  };
}

/** Checked whole before the import changes anything: references must point inside the imported state. */
export function checkTeamState(state: State): void {
  const studioProjects = new Set(state.projects.filter((p) => p.studio).map((p) => p.name));
  const emails = new Set<string>();
  state.team?.forEach((member, i) => {
    if (emails.has(emailKey(member.email))) throw invalidParameter(`team[${i}].email`, `repeats ${member.email}`);
    emails.add(emailKey(member.email));
    member.projects.forEach((p, j) => {
      if (!studioProjects.has(p))
        throw invalidParameter(`team[${i}].projects[${j}]`, `"${p}" is not among the imported Studio projects`);
    });
  });
  const groups = new Set<string>();
  state.studio.groups.forEach((group, i) => {
    if (!studioProjects.has(group.project))
      throw invalidParameter(
        `studio.groups[${i}].project`,
        `"${group.project}" is not among the imported Studio projects`,
      );
    const key = `${group.project}\u0000${group.name}`;
    if (groups.has(key))
      throw invalidParameter(`studio.groups[${i}].name`, `repeats group "${group.name}" of project "${group.project}"`);
    groups.add(key);
    group.members.forEach((email, j) => {
      if (!emails.has(emailKey(email)))
        throw invalidParameter(`studio.groups[${i}].members[${j}]`, `${email} is not among the imported team`);
    });
  });
  checkBatchReferences(state, state.studio, groups);
}

function checkBatchReferences(state: State, studio: StateStudio, groups: Set<string>): void {
  const batches = new Map(state.batches.map((b) => [b.name, b.project]));
  studio.batch_groups.forEach((entry, i) => {
    const project = batches.get(entry.batch);
    if (project === undefined)
      throw invalidParameter(`studio.batch_groups[${i}].batch`, `"${entry.batch}" is not among the imported batches`);
    entry.groups.forEach((name, j) => {
      if (!groups.has(`${project}\u0000${name}`))
        throw invalidParameter(
          `studio.batch_groups[${i}].groups[${j}]`,
          `"${name}" is not an imported group of project "${project}"`,
        );
    });
  });
  studio.priority_order?.forEach((name, i) => {
    if (!batches.has(name))
      throw invalidParameter(`studio.priority_order[${i}]`, `"${name}" is not among the imported batches`);
  });
}

/** Loads the checked team state into a fresh tenant. A team without an admin gets the account owner. */
export function importTeamState(tenant: Tenant, state: State): void {
  if (state.team) {
    const members = state.team.map(
      (m): MemberRecord => ({
        id: m.id ?? derivedId('member', tenant.account, emailKey(m.email)),
        email: m.email,
        role: m.role,
        ...(m.firstName !== undefined && { firstName: m.firstName }),
        ...(m.lastName !== undefined && { lastName: m.lastName }),
        ...(m.company !== undefined && { company: m.company }),
        ...(m.invited_role !== undefined && { invitedRole: m.invited_role }),
        ...(m.expiry !== undefined && { expiryMs: Date.parse(m.expiry) }),
        projects: new Set(m.projects),
      }),
    );
    const team = new Team(members.some((m) => m.role === 'admin') ? undefined : ownerRecord(tenant.account));
    for (const m of members) team.put(m);
    tenant.team = team;
  }
  for (const g of state.studio.groups) {
    const id = g.id ?? derivedId('group', tenant.account, g.project, g.name);
    tenant.studio
      .groupsOf(g.project)
      .set(g.name, { id, name: g.name, isSingleton: g.isSingleton, members: new Set(g.members.map(emailKey)) });
  }
  const projectOf = new Map(state.batches.map((b) => [b.name, b.project]));
  for (const entry of state.studio.batch_groups)
    tenant.studio.batchGroups.set(entry.batch, {
      project: projectOf.get(entry.batch) as string,
      groups: [...entry.groups],
    });
  tenant.studio.priorityOrder = state.studio.priority_order ?? undefined;
  const attempts = [...state.training_attempts].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
  for (const attempt of attempts) tenant.training.add(structuredClone(attempt));
}
