import type { State } from '../domain/state/schema.js';
import type { Scheduler } from '../services/scheduler.js';
import { importState } from '../services/tenant-state.js';
import type { Mode } from '../store/mode.js';
import type { Store } from '../store/store.js';
import type { V2CatalogState } from '../store/v2-catalog.js';
import type { BlobFolder } from './blobs.js';
import type { RecoveredTenant } from './recovery.js';
import { tenantMeta } from './tenant-lines.js';

const isEmptyCatalog = ({ deliveries, schemas, datasets }: V2CatalogState) =>
  deliveries.length === 0 && schemas.length === 0 && datasets.length === 0;

/** `test:acme` -> { mode: 'test', account: 'acme' } (accounts never hold a colon; the mode never does either). */
export function parseTenantKey(key: string): { account: string; mode: Mode } {
  const colon = key.indexOf(':');
  return { mode: key.slice(0, colon) as Mode, account: key.slice(colon + 1) };
}

/**
 * Gives the store the recovered tenants, through the same import a `PUT /_mock/state` uses (its checks
 * included), then the file records (bytes stay on disk, under blobs/) and the idempotency records.
 */
export function restoreTenants(
  store: Store,
  scheduler: Scheduler,
  tenants: Map<string, RecoveredTenant>,
  blobs: BlobFolder,
  warn: (message: string) => void,
): void {
  for (const [key, recovered] of tenants) {
    const { account, mode } = parseTenantKey(key);
    const tenant = store.tenant(account, mode);
    const state: State = {
      format: 'labelmock-state/1',
      ...(recovered.meta ?? tenantMeta(tenant)),
      ...(!isEmptyCatalog(recovered.catalog) && { v2: recovered.catalog }),
      tasks: [...recovered.tasks.values()],
      files: [],
      callbacks: [...recovered.callbacks.values()],
      scheduled_jobs: [...recovered.jobs.values()],
    };
    const fresh = importState(store, tenant, state, scheduler);
    for (const { file, blob } of recovered.files.values()) {
      const path = blob === null ? undefined : blobs.pathOf(blob);
      if (blob !== null && path === undefined)
        warn(`file ${file.id}: blob ${JSON.stringify(blob.slice(0, 80))} is no name labelmock writes; bytes left out`);
      fresh.files.insert(file, null, path);
    }
    // An in-flight record's request was never answered: its retry runs anew.
    for (const [idempotencyKey, entry] of recovered.idempotency) {
      if (entry.state === 'done' && entry.tenantKey === key) store.idempotency.set(idempotencyKey, entry);
    }
    // A tenant reset to nothing (or that only ever held defaults) is not kept, as in memory.
    store.dropIfEmpty(fresh);
  }
}
