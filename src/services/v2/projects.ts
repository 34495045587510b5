import type { Tenant } from '../../store/tenant.js';
import { type ProjectSelector, requireProjectBy } from './lookup.js';
import { projectView } from './views.js';

/** `GET /v2/projects`: the account's projects, oldest first (as v1 lists them), by creation time. */
export function listProjectsV2(tenant: Tenant, query: { created_after?: number; created_before?: number }) {
  const projects = [];
  for (const record of tenant.shared.projects.values()) {
    const created = Date.parse(record.project.created_at);
    if (query.created_after !== undefined && created < query.created_after) continue;
    if (query.created_before !== undefined && created > query.created_before) continue;
    projects.push(projectView(record));
  }
  return { projects };
}

export const getProjectV2 = (tenant: Tenant, selector: ProjectSelector) =>
  projectView(requireProjectBy(tenant, selector));
