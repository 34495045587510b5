import type { CallbackDelivery } from '../domain/callbacks/schemas.js';
import type { ScheduledJob } from '../domain/jobs/schemas.js';
import type { FileRecord } from '../store/file-collection.js';
import type { IdempotencyEntry } from '../store/idempotency-store.js';
import type { TaskRecord } from '../store/task-collection.js';
import type { Tenant } from '../store/tenant.js';
import type { V2CatalogState } from '../store/v2-catalog.js';

/**
 * What changed in one tenant since its last journal line. Entities are held by reference and written
 * as they are when the line is made, so ten changes to one task between two lines cost one entry.
 */
export class PendingChanges {
  /** The tenant was replaced (a reset, an import): its next line carries its whole state. */
  full = false;
  readonly tasks = new Set<TaskRecord>();
  readonly files = new Set<FileRecord>();
  /** By jobKey: the job scheduled, or null when it was taken to run. */
  readonly jobs = new Map<string, ScheduledJob | null>();
  /** By delivery id: the delivery as it stands, or null when the bounded journal let it go. */
  readonly callbacks = new Map<string, CallbackDelivery | null>();
  readonly idempotency = new Map<string, IdempotencyEntry>();
  /** Records added to the v2 catalog, in order (never changed once added: each is written once). */
  readonly catalog: V2CatalogState = { deliveries: [], schemas: [], datasets: [] };

  constructor(readonly tenant: Tenant) {}
}
