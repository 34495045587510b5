import { notFound, selectorMissing, selectorsDisagree } from '../../errors/index.js';
import type { BatchRecord, ProjectRecord } from '../../store/account.js';
import type { Tenant } from '../../store/tenant.js';
import { requireNamed, requireUsable } from '../account-objects.js';

/**
 * v2 names a project or batch by id or by name. Both may be given when they agree; an id of nothing
 * is a 404 like an unknown name.
 */

export interface ProjectSelector {
  project_id?: string | undefined;
  project_name?: string | undefined;
}

export interface BatchSelector {
  batch_id?: string | undefined;
  batch_name?: string | undefined;
}

export function findProjectBy(tenant: Tenant, selector: ProjectSelector): ProjectRecord | undefined {
  const { project_id: id, project_name: name } = selector;
  if (id === undefined && name === undefined) return undefined;
  const byId = id === undefined ? undefined : tenant.shared.projectWithId(id);
  if (id !== undefined && !byId) throw notFound('Project', id);
  const byName = name === undefined ? undefined : requireNamed(tenant, 'project', name);
  if (byId && byName && byId !== byName)
    throw selectorsDisagree('project_id', 'project_name', 'name different projects');
  return byId ?? byName;
}

/**
 * A value that may be a project's id or its name (v2's `project`, the control plane's): the selector it stands
 * for. One precedence everywhere: an id first (ids are the service's own and unique; a name is the user's, and may
 * be spelt like another project's id), then the name.
 */
export function projectSelectorFor(tenant: Tenant, value: string): ProjectSelector {
  return tenant.shared.projectWithId(value) ? { project_id: value } : { project_name: value };
}

export function requireProjectBy(tenant: Tenant, selector: ProjectSelector): ProjectRecord {
  const record = findProjectBy(tenant, selector);
  if (!record) throw selectorMissing(['project_id', 'project_name']);
  return record;
}

export function findBatchBy(tenant: Tenant, selector: BatchSelector): BatchRecord | undefined {
  const { batch_id: id, batch_name: name } = selector;
  if (id === undefined && name === undefined) return undefined;
  const byId = id === undefined ? undefined : tenant.shared.batches.withId(id);
  if (id !== undefined && !byId) throw notFound('Batch', id);
  const byName = name === undefined ? undefined : requireNamed(tenant, 'batch', name);
  if (byId && byName && byId !== byName) throw selectorsDisagree('batch_id', 'batch_name', 'name different batches');
  return byId ?? byName;
}

export function requireBatchBy(tenant: Tenant, selector: BatchSelector): BatchRecord {
  const record = findBatchBy(tenant, selector);
  if (!record) throw selectorMissing(['batch_id', 'batch_name']);
  return record;
}

/** As requireBatch, for a change: a batch made with the other mode's key may be read, not changed (400). */
export function requireUsableBatchBy(tenant: Tenant, selector: BatchSelector): BatchRecord {
  const record = requireBatchBy(tenant, selector);
  return requireUsable(tenant, 'batch', record.batch.name, selector.batch_id !== undefined ? 'batch_id' : 'batch_name');
}

export function requireUsableProjectBy(tenant: Tenant, selector: ProjectSelector): ProjectRecord {
  const record = requireProjectBy(tenant, selector);
  const field = selector.project_id !== undefined ? 'project_id' : 'project_name';
  return requireUsable(tenant, 'project', record.project.name, field);
}

/** Whether an ISO time falls in [after, before] (either bound may be absent); no time passes only without bounds. */
export function withinRange(iso: string | undefined, after?: number, before?: number): boolean {
  if (after === undefined && before === undefined) return true;
  if (iso === undefined) return false;
  const ms = Date.parse(iso);
  return (after === undefined || ms >= after) && (before === undefined || ms <= before);
}
