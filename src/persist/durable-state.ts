import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { tenantFingerprint } from '../runtime/fingerprint.js';
import { nextTurn } from '../runtime/slices.js';
import type { Scheduler } from '../services/scheduler.js';
import type { FileRecord } from '../store/file-collection.js';
import type { Store } from '../store/store.js';
import type { StoreChange, Tenant } from '../store/tenant.js';
import { writeFileAtomic } from './atomic-file.js';
import { BlobFolder } from './blobs.js';
import { frameLine } from './frames.js';
import { JournalFile, type JournalIo, nodeJournalIo } from './journal-file.js';
import { LineMaker } from './line-maker.js';
import { acquireDirLock } from './lock.js';
import { SECRET_FOLDER_MODE } from './modes.js';
import { PendingChanges } from './pending.js';
import { journalName, listDataFiles, readDataDir, snapshotName } from './recovery.js';
import { parseTenantKey, restoreTenants } from './restore.js';
import { jobKey, lineText } from './tenant-lines.js';

export interface DurableOptions {
  /** Journal bytes since the last snapshot that start a compaction (default 64 MiB). */
  compactBytes?: number;
  /** Where recovery and failure warnings go (stderr by default). */
  warn?: (message: string) => void;
  /** The journal's disk calls (tests inject failing ones). */
  io?: JournalIo;
  /** Tasks per snapshot line (default 2000, about 1 MB of JSON; tests make it small). */
  snapshotTasksPerLine?: number;
}

/** What a start found in the data directory (the CLI prints it). */
export interface RecoveryReport {
  tenants: number;
  tasks: number;
  lines: number;
  ms: number;
}

const DEFAULT_COMPACT_BYTES = 64 * 1024 * 1024;
const SNAPSHOT_TASKS_PER_LINE = 2000;

/**
 * `--data-dir`: the store's changes, journaled before the answer that made them is sent.
 *
 * The store tells what changed (task and file collections, jobs, callback journal, idempotency records,
 * tenants made and reset); each tenant's changes become one checksummed line of `journal-<g>.ndjson`,
 * written with the lines of every other request of the moment in one write and one fdatasync (group
 * commit). Past `compactBytes` the journal is compacted: a new generation starts, and a snapshot of
 * every tenant (one full line each) is written beside it, after which older files go. A start reads the
 * newest snapshot and the journals from its generation on, cutting a torn tail.
 */
export class DurableState {
  private journal: JournalFile;
  private generation: number;
  private bytesSinceSnapshot: number;
  private readonly pending = new Map<string, PendingChanges>();
  private readonly changes = new WeakMap<Tenant, number>();
  /** Stops hearing the store's change feed (on close). */
  private readonly unsubscribe: () => void;
  private readonly lines: LineMaker;
  /** Each tenant's newest append not yet durable: a request with nothing new to write waits on it. */
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Times a tenant was reloaded after a failed write: a request spanning one had its change dropped. */
  private readonly reloads = new Map<string, number>();
  /** While set, appends wait on it in order (a line naming a blob waits for the blob's write). */
  private barrier: Promise<void> | undefined;
  private flushQueued = false;
  private compaction: Promise<void> | undefined;
  private quiet = false;
  private closed = false;
  readonly report: RecoveryReport;

  private constructor(
    readonly dir: string,
    private readonly store: Store,
    private readonly scheduler: Scheduler,
    private readonly blobs: BlobFolder,
    private readonly releaseLock: () => void,
    private readonly options: Required<DurableOptions>,
  ) {
    const started = performance.now();
    const recovered = readDataDir(dir, options.warn);
    restoreTenants(store, scheduler, recovered.tenants, blobs, options.warn);
    let tasks = 0;
    for (const tenant of recovered.tenants.values()) tasks += tenant.tasks.size;
    this.report = { tenants: recovered.tenants.size, tasks, lines: recovered.lines, ms: performance.now() - started };
    this.lines = new LineMaker(store);
    this.generation = recovered.lastGeneration + 1;
    this.bytesSinceSnapshot = recovered.journalBytes;
    this.journal = JournalFile.open(join(dir, journalName(this.generation)), options.io);
    this.unsubscribe = store.changes.subscribe(this.hear);
  }

  /** Locks the folder (a second process refuses to start), recovers what it holds, and starts journaling. */
  static open(dir: string, store: Store, scheduler: Scheduler, options: DurableOptions = {}): DurableState {
    const lock = acquireDirLock(dir);
    try {
      const blobDir = join(dir, 'blobs');
      mkdirSync(blobDir, { recursive: true, mode: SECRET_FOLDER_MODE });
      for (const folder of [dir, blobDir]) {
        for (const name of readdirSync(folder)) if (name.endsWith('.tmp')) rmSync(join(folder, name), { force: true });
      }
      const settings = {
        compactBytes: options.compactBytes ?? DEFAULT_COMPACT_BYTES,
        warn: options.warn ?? ((message: string) => console.error(`labelmock: ${message}`)),
        io: options.io ?? nodeJournalIo,
        snapshotTasksPerLine: options.snapshotTasksPerLine ?? SNAPSHOT_TASKS_PER_LINE,
      };
      return new DurableState(dir, store, scheduler, new BlobFolder(blobDir), lock.release, settings);
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  /** How often the tenant was reloaded after a failed write (the durability middleware compares). */
  reloadCount(key: string): number {
    return this.reloads.get(key) ?? 0;
  }

  /**
   * Resolves once every change the tenant holds is durable: its pending ones are written now, with
   * the meta if the request changed it. Rejects when they could not be (the tenant is then reloaded
   * from the folder, so memory holds nothing that is not on disk).
   */
  sync(tenant: Tenant): Promise<void> {
    if (this.store.findTenant(tenant.key) === tenant) this.pendingFor(tenant);
    this.flush();
    return this.inFlight.get(tenant.key) ?? Promise.resolve();
  }

  /** Writes what is pending, waits for every write, stops journaling and unlocks the folder (SIGTERM). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    await this.compaction;
    await Promise.allSettled([...this.inFlight.values()]);
    await this.journal.close();
    this.unsubscribe();
    this.releaseLock();
  }

  /** The store's change feed, heard in one place: each change goes to its tenant's pending line. */
  private readonly hear = (change: StoreChange): void => {
    if (change.kind === 'idempotency_stored') {
      const tenant = this.store.findTenant(change.entry.tenantKey);
      if (change.entry.state === 'done' && tenant) this.pendingFor(tenant)?.idempotency.set(change.key, change.entry);
      return;
    }
    if (change.kind === 'event') return;
    const pending = this.pendingFor(change.tenant);
    if (!pending) return;
    switch (change.kind) {
      case 'task_stored':
        pending.tasks.add(change.record);
        break;
      case 'file_stored':
        pending.files.add(change.record);
        break;
      case 'job':
        pending.jobs.set(jobKey(change.job), change.scheduled ? change.job : null);
        break;
      case 'delivery':
        pending.callbacks.set(change.delivery.id, change.delivery);
        break;
      case 'delivery_dropped':
        pending.callbacks.set(change.id, null);
        break;
      case 'tenant_reset':
        pending.full = true;
        break;
      case 'catalog_added':
        pending.catalog.deliveries.push(...(change.added.deliveries ?? []));
        pending.catalog.schemas.push(...(change.added.schemas ?? []));
        pending.catalog.datasets.push(...(change.added.datasets ?? []));
        break;
    }
  };

  /**
   * How many changes the tenant's journal heard so far: a request that reads (GET, HEAD) and still changed
   * something (Studio's GET send_tasks_to_completed) waits for the disk like a write.
   */
  changeCount(tenant: Tenant): number {
    return this.changes.get(tenant) ?? 0;
  }

  /** The tenant's pending changes, and a flush queued for them; none for a tenant replaced since. */
  private pendingFor(tenant: Tenant): PendingChanges | undefined {
    if (this.quiet || this.closed || this.store.findTenant(tenant.key) !== tenant) return undefined;
    this.changes.set(tenant, this.changeCount(tenant) + 1);
    let pending = this.pending.get(tenant.key);
    if (pending?.tenant !== tenant) {
      pending = new PendingChanges(tenant);
      this.pending.set(tenant.key, pending);
    }
    if (!this.flushQueued) {
      this.flushQueued = true;
      setImmediate(() => this.flush());
    }
    return pending;
  }

  /** Turns every tenant's pending changes into lines and appends them, as one group. */
  private flush(): void {
    this.flushQueued = false;
    if (this.pending.size === 0 || this.closed) return;
    const frames: string[] = [];
    const keys: string[] = [];
    const blobWrites: Promise<void>[] = [];
    const blobNames: [Tenant, FileRecord, string][] = [];
    for (const pending of this.pending.values()) {
      const text = this.lines.line(pending, (record, bytes) => {
        const name = this.blobs.name(record.file.id);
        blobWrites.push(this.blobs.write(name, bytes));
        blobNames.push([pending.tenant, record, name]);
        return name;
      });
      if (text === undefined) continue;
      frames.push(frameLine(text));
      keys.push(pending.tenant.key);
    }
    this.pending.clear();
    if (frames.length === 0) return;
    const text = frames.join('');
    const append = this.appendInOrder(text, blobWrites);
    for (const key of keys) this.inFlight.set(key, append);
    append.then(
      () => {
        for (const [tenant, record, name] of blobNames) {
          // The bytes are on disk now: memory lets them go (a read takes them from blobs/).
          tenant.files.movedToDisk(record, this.blobs.path(name));
          this.blobs.settled(name);
        }
        this.settle(keys, append);
        this.bytesSinceSnapshot += text.length;
        if (this.bytesSinceSnapshot > this.options.compactBytes) this.compact();
      },
      (err: unknown) => {
        for (const [, , name] of blobNames) this.blobs.settled(name);
        this.settle(keys, append);
        this.reload(keys, err);
      },
    );
  }

  /**
   * Appends now, or, while a line waits for its blobs, after it: lines reach the journal in order. A line
   * behind one that failed fails with it, as the journal does with groups queued behind a failed one.
   */
  private appendInOrder(text: string, blobWrites: Promise<void>[]): Promise<void> {
    if (blobWrites.length === 0 && !this.barrier) return this.journal.append(text);
    const append = Promise.all([this.barrier, ...blobWrites]).then(() => this.journal.append(text));
    this.barrier = append;
    const clear = () => {
      if (this.barrier === append) this.barrier = undefined;
    };
    append.then(clear, clear);
    return append;
  }

  private settle(keys: string[], append: Promise<void>): void {
    for (const key of keys) if (this.inFlight.get(key) === append) this.inFlight.delete(key);
  }

  /**
   * A write failed: the tenants it carried lose what memory holds beyond the folder. They are read
   * back from the folder (their changes since the last durable line are dropped, and so are their
   * pending ones, whose requests then answer 503 too), with the journal quiet meanwhile.
   */
  private reload(keys: string[], err: unknown): void {
    const reason = err instanceof Error ? err.message : String(err);
    this.options.warn(
      `a write to the data directory failed (${reason}); reloading ${keys.map(tenantFingerprint).join(', ')} from it`,
    );
    const affected = new Set(keys);
    for (const key of affected) {
      this.pending.delete(key);
      this.reloads.set(key, this.reloadCount(key) + 1);
    }
    this.quiet = true;
    try {
      const recovered = readDataDir(this.dir, this.options.warn, { only: affected, cutTornTail: false });
      for (const key of affected) {
        if (recovered.tenants.has(key)) continue;
        const { account, mode } = parseTenantKey(key);
        this.store.reset(account, mode);
      }
      restoreTenants(this.store, this.scheduler, recovered.tenants, this.blobs, this.options.warn);
    } finally {
      this.quiet = false;
    }
  }

  /**
   * Starts a new journal generation and writes a snapshot of every tenant beside it; once that is durable,
   * the older snapshot and journals go. The snapshot is made tenant by tenant, yielding between them:
   * a change made meanwhile is in the new journal, which recovery replays over the snapshot.
   */
  private compact(): void {
    if (this.compaction || this.closed) return;
    const generation = this.generation + 1;
    const previous = this.journal;
    this.journal = JournalFile.open(join(this.dir, journalName(generation)), this.options.io);
    this.generation = generation;
    this.bytesSinceSnapshot = 0;
    this.compaction = (async () => {
      await previous.close();
      await writeFileAtomic(join(this.dir, snapshotName(generation)), this.snapshotFrames());
      const { snapshots, journals } = listDataFiles(this.dir);
      for (const old of snapshots) if (old < generation) rmSync(join(this.dir, snapshotName(old)), { force: true });
      for (const old of journals) if (old < generation) rmSync(join(this.dir, journalName(old)), { force: true });
      await this.blobs.sweep(() => this.namedBlobs());
    })()
      .catch((err: unknown) => {
        this.options.warn(
          `compaction failed (${err instanceof Error ? err.message : String(err)}); journaling goes on`,
        );
      })
      .finally(() => {
        this.compaction = undefined;
      });
  }

  private async *snapshotFrames(): AsyncGenerator<string> {
    for (const tenant of this.store.allTenants()) {
      if (this.store.findTenant(tenant.key) !== tenant || this.store.isVacant(tenant)) continue;
      const pending = new PendingChanges(tenant);
      pending.full = true;
      // A file whose bytes are not on disk yet is left out: the line that writes them is in the new journal.
      const text = this.lines.line(pending, () => undefined, { remember: false, tasks: false });
      if (text !== undefined) yield frameLine(text);
      // Tasks follow in lines of their own: one line per tenant would outgrow a string for a large one.
      const tasks = tenant.tasks.all();
      const per = this.options.snapshotTasksPerLine;
      for (let at = 0; at < tasks.length; at += per) {
        yield frameLine(lineText({ t: tenant.key }, undefined, tasks.slice(at, at + per)));
        await nextTurn();
      }
      await nextTurn();
    }
  }

  private namedBlobs(): Set<string> {
    const named = new Set<string>();
    for (const tenant of this.store.allTenants()) {
      for (const record of tenant.files.all()) if (record.blobPath) named.add(basename(record.blobPath));
    }
    return named;
  }
}
