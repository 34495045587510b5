import { invalidParameter, notFound } from '../errors/index.js';
import type { BatchRecord, ProjectRecord } from '../store/account.js';
import type { Tenant } from '../store/tenant.js';

type Kind = 'project' | 'batch';
type RecordOf<K extends Kind> = K extends 'project' ? ProjectRecord : BatchRecord;

const lookup = <K extends Kind>(tenant: Tenant, kind: K, name: string) =>
  (kind === 'project' ? tenant.shared.projects.get(name) : tenant.shared.batches.get(name)) as RecordOf<K> | undefined;

/** A project or batch of the caller's account, or the 404 that names it. */
export function requireNamed<K extends Kind>(tenant: Tenant, kind: K, name: string): RecordOf<K> {
  const record = lookup(tenant, kind, name);
  if (!record) throw notFound(kind === 'project' ? 'Project' : 'Batch', name);
  return record;
}

/** As requireNamed, for use: one made with a key of the other mode may be read but not used (400). */
export function requireUsable<K extends Kind>(
  tenant: Tenant,
  kind: K,
  name: string,
  field: string = kind,
): RecordOf<K> {
  const record = requireNamed(tenant, kind, name);
  if (!tenant.owns(record)) {
    throw invalidParameter(
      field,
      `names ${kind} "${name}", which was created with a ${record.mode} key; a ${tenant.mode} key cannot use it`,
    );
  }
  return record;
}
