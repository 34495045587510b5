import { readdirSync, readFileSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import type { CallbackDelivery } from '../domain/callbacks/schemas.js';
import type { ScheduledJob } from '../domain/jobs/schemas.js';
import type { State } from '../domain/state/schema.js';
import type { IdempotencyEntry } from '../store/idempotency-store.js';
import type { V2CatalogState } from '../store/v2-catalog.js';
import { readFrames } from './frames.js';
import { jobKey, type LineFile, type TenantLine, type TenantMeta } from './tenant-lines.js';

/** A tenant as the data directory's lines describe it, entities by id in creation order. */
export interface RecoveredTenant {
  meta: TenantMeta | undefined;
  catalog: V2CatalogState;
  tasks: Map<string, State['tasks'][number]>;
  files: Map<string, LineFile>;
  jobs: Map<string, ScheduledJob>;
  callbacks: Map<string, CallbackDelivery>;
  idempotency: Map<string, IdempotencyEntry>;
}

const emptyTenant = (): RecoveredTenant => ({
  meta: undefined,
  catalog: { deliveries: [], schemas: [], datasets: [] },
  tasks: new Map(),
  files: new Map(),
  jobs: new Map(),
  callbacks: new Map(),
  idempotency: new Map(),
});

/** Applies one line: a full line replaces the tenant, a delta upserts what it names and drops what it says went. */
function applyLine(tenants: Map<string, RecoveredTenant>, line: TenantLine): void {
  let tenant = tenants.get(line.t);
  if (!tenant || line.full) {
    tenant = emptyTenant();
    tenants.set(line.t, tenant);
  }
  if (line.meta) {
    // Lines written before the catalog had lines of its own carried it whole in the meta.
    const { v2, ...meta } = line.meta;
    tenant.meta = meta;
    if (v2) tenant.catalog = { deliveries: [...v2.deliveries], schemas: [...v2.schemas], datasets: [...v2.datasets] };
  }
  if (line.v2) {
    tenant.catalog.deliveries.push(...(line.v2.deliveries ?? []));
    tenant.catalog.schemas.push(...(line.v2.schemas ?? []));
    tenant.catalog.datasets.push(...(line.v2.datasets ?? []));
  }
  for (const entry of line.tasks ?? []) tenant.tasks.set(entry.task.task_id, entry);
  for (const entry of line.files ?? []) tenant.files.set(entry.file.id, entry);
  for (const key of line.jobs_done ?? []) tenant.jobs.delete(key);
  for (const job of line.jobs ?? []) tenant.jobs.set(jobKey(job), job);
  for (const id of line.callbacks_dropped ?? []) tenant.callbacks.delete(id);
  for (const delivery of line.callbacks ?? []) {
    const body = 'body' in delivery ? delivery.body : tenant.callbacks.get(delivery.id)?.body;
    // A progress entry whose delivery no earlier line holds (cut off with a torn tail) has nothing to resend.
    if (body !== undefined) tenant.callbacks.set(delivery.id, { ...delivery, body });
  }
  for (const [key, entry] of line.idempotency ?? []) tenant.idempotency.set(key, entry);
}

/** The data directory's files of one kind, by generation. */
export interface DataFiles {
  snapshots: number[];
  journals: number[];
}

const FILE_NAME = /^(snapshot|journal)-(\d+)\.ndjson$/;
export const snapshotName = (generation: number) => `snapshot-${generation}.ndjson`;
export const journalName = (generation: number) => `journal-${generation}.ndjson`;

export function listDataFiles(dir: string): DataFiles {
  const files: DataFiles = { snapshots: [], journals: [] };
  for (const name of readdirSync(dir)) {
    const match = FILE_NAME.exec(name);
    if (!match?.[1] || !match[2]) continue;
    (match[1] === 'snapshot' ? files.snapshots : files.journals).push(Number(match[2]));
  }
  files.snapshots.sort((a, b) => a - b);
  files.journals.sort((a, b) => a - b);
  return files;
}

export interface Recovered {
  tenants: Map<string, RecoveredTenant>;
  /** The newest generation seen: the next journal takes the one after. */
  lastGeneration: number;
  /** The snapshot read (0: none) and the journal bytes written since it: what compaction weighs. */
  snapshotGeneration: number;
  journalBytes: number;
  lines: number;
}

/**
 * Reads the newest snapshot and every journal from its generation on. A torn or corrupt record ends
 * what is read of its file, with a warning; the newest journal is cut there, so the next start does
 * not warn again. Nothing here throws on a file's content.
 */
export function readDataDir(
  dir: string,
  warn: (message: string) => void,
  { only, cutTornTail = true }: { only?: Set<string>; cutTornTail?: boolean } = {},
): Recovered {
  const { snapshots, journals } = listDataFiles(dir);
  const snapshotGeneration = snapshots.at(-1) ?? 0;
  const tenants = new Map<string, RecoveredTenant>();
  let lines = 0;
  const replay = (name: string, isLastJournal: boolean): number => {
    const path = join(dir, name);
    const buffer = readFileSync(path);
    const frames = readFrames(buffer);
    if (frames.problem) {
      warn(`${name}: ${frames.problem}`);
      if (isLastJournal && cutTornTail) truncateSync(path, frames.goodBytes);
    }
    for (const text of frames.lines) {
      const line = parseLine(text);
      if (!line) {
        warn(`${name}: a record that is not a tenant line was skipped`);
        continue;
      }
      if (only && !only.has(line.t)) continue;
      applyLine(tenants, line);
      lines += 1;
    }
    return frames.goodBytes;
  };
  if (snapshotGeneration > 0) replay(snapshotName(snapshotGeneration), false);
  const replayed = journals.filter((generation) => generation >= snapshotGeneration);
  let journalBytes = 0;
  replayed.forEach((generation, index) => {
    journalBytes += replay(journalName(generation), index === replayed.length - 1);
  });
  const lastGeneration = Math.max(snapshotGeneration, journals.at(-1) ?? 0);
  return { tenants, lastGeneration, snapshotGeneration, journalBytes, lines };
}

function parseLine(text: string): TenantLine | undefined {
  try {
    const line = JSON.parse(text) as TenantLine;
    return typeof line === 'object' && line !== null && typeof line.t === 'string' ? line : undefined;
  } catch {
    return undefined;
  }
}
