import { basename } from 'node:path';
import type { CallbackDelivery } from '../domain/callbacks/schemas.js';
import { ownedProjectsAndBatches } from '../services/tenant-state.js';
import type { FileRecord } from '../store/file-collection.js';
import type { Store } from '../store/store.js';
import type { Tenant } from '../store/tenant.js';
import type { PendingChanges } from './pending.js';
import { type DeliveryProgress, type LineFile, lineText, tenantMetaBesides } from './tenant-lines.js';

/** Writes the bytes of a file still held in memory and answers the blob's name (undefined: leave the file out). */
export type BlobFor = (record: FileRecord, bytes: Buffer) => string | undefined;

/** Turns a tenant's pending changes into the text of its journal line. */
export class LineMaker {
  /**
   * The meta each tenant's last line carried: a line carries it again only when it changed. Weak: a
   * tenant dropped for holding nothing (or replaced by a reset) takes its entry with it.
   */
  private readonly lastMeta = new WeakMap<Tenant, string>();
  /**
   * Each tenant's projects and batches as JSON text (no braces), with the account revision it was made at: they
   * grow with what the account holds, so they are serialized again only when a change moved the revision.
   */
  private readonly accountPart = new WeakMap<Tenant, { revision: number; text: string }>();
  /** Deliveries whose body a line carried: later lines carry only their progress (a large task's body once). */
  private readonly bodyWritten = new WeakSet<CallbackDelivery>();

  constructor(private readonly store: Store) {}

  /**
   * The line, or undefined when nothing changed. `remember: false` (a snapshot) leaves the meta
   * unremembered: a request's change the snapshot carried still needs its own durable line.
   * `tasks: false` leaves a full line's tasks out (a snapshot writes them in lines of their own).
   */
  line(pending: PendingChanges, blobFor: BlobFor, { remember = true, tasks = true } = {}): string | undefined {
    const { tenant } = pending;
    const metaText = this.metaText(tenant);
    const known = this.lastMeta.get(tenant);
    // A tenant new to the journal that holds nothing (a new key's refused POST) needs no line: a
    // restart without it makes the same empty tenant.
    if (known === undefined && !pending.full && this.store.isVacant(tenant)) return undefined;
    const metaChanged = pending.full || metaText !== known;
    if (remember) this.lastMeta.set(tenant, metaText);
    const lineFile = (record: FileRecord): LineFile[] => {
      if (record.blobPath !== undefined) return [{ file: record.file, blob: basename(record.blobPath) }];
      if (!record.bytes) return [{ file: record.file, blob: null }];
      const blob = blobFor(record, record.bytes);
      return blob === undefined ? [] : [{ file: record.file, blob }];
    };
    if (pending.full) {
      const line = {
        t: tenant.key,
        full: true as const,
        files: tenant.files.all().flatMap(lineFile),
        jobs: tenant.jobs,
        callbacks: tenant.callbacks,
        idempotency: this.store.idempotency.entriesOf(tenant.key).filter(([, entry]) => entry.state === 'done'),
        ...(!tenant.v2.isEmpty && { v2: tenant.v2.toState() }),
      };
      return lineText(line, metaText, tasks ? tenant.tasks.all() : []);
    }
    const jobs = [...pending.jobs.values()].filter((job) => job !== null);
    const jobsDone = [...pending.jobs].filter(([, job]) => job === null).map(([key]) => key);
    const callbacks = [...pending.callbacks.values()]
      .filter((delivery) => delivery !== null)
      .map((delivery) => this.deliveryEntry(delivery, remember));
    const dropped = [...pending.callbacks].filter(([, delivery]) => delivery === null).map(([id]) => id);
    const { deliveries, schemas, datasets } = pending.catalog;
    const catalog = {
      ...(deliveries.length > 0 && { deliveries }),
      ...(schemas.length > 0 && { schemas }),
      ...(datasets.length > 0 && { datasets }),
    };
    const line = {
      t: tenant.key,
      ...(pending.files.size > 0 && { files: [...pending.files].flatMap(lineFile) }),
      ...(jobs.length > 0 && { jobs }),
      ...(jobsDone.length > 0 && { jobs_done: jobsDone }),
      ...(callbacks.length > 0 && { callbacks }),
      ...(dropped.length > 0 && { callbacks_dropped: dropped }),
      ...(pending.idempotency.size > 0 && { idempotency: [...pending.idempotency] }),
      ...(Object.keys(catalog).length > 0 && { v2: catalog }),
    };
    if (!metaChanged && pending.tasks.size === 0 && Object.keys(line).length === 1) return undefined;
    return lineText(line, metaChanged ? metaText : undefined, pending.tasks);
  }

  /** The meta's text: the small fields serialized and compared on each line, projects and batches when changed. */
  private metaText(tenant: Tenant): string {
    const { revision } = tenant.shared;
    let part = this.accountPart.get(tenant);
    if (part?.revision !== revision) {
      part = { revision, text: JSON.stringify(ownedProjectsAndBatches(tenant)).slice(1, -1) };
      this.accountPart.set(tenant, part);
    }
    return `${JSON.stringify(tenantMetaBesides(tenant)).slice(0, -1)},${part.text}}`;
  }

  private deliveryEntry(delivery: CallbackDelivery, remember: boolean): CallbackDelivery | DeliveryProgress {
    if (this.bodyWritten.has(delivery)) {
      const { body: _body, ...progress } = delivery;
      return progress;
    }
    if (remember) this.bodyWritten.add(delivery);
    return delivery;
  }
}
