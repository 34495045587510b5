import type { CallbackDelivery } from '../domain/callbacks/schemas.js';
import type { ScheduledJob } from '../domain/jobs/schemas.js';
import { nextTurn } from '../runtime/slices.js';
import { FileCollection } from '../store/file-collection.js';
import type { TaskRecord } from '../store/task-collection.js';
import type { Tenant } from '../store/tenant.js';
import type { V2CatalogState } from '../store/v2-catalog.js';
import { stateHead, stateTail, stateTask } from './tenant-state.js';

/** About this much JSON text is written per turn of the event loop. */
const CHUNK_CHARS = 1024 * 1024;
/** File bytes are base64-encoded this many at a time; a multiple of 3, so the slices join into one text. */
const FILE_SLICE_BYTES = 3 * 256 * 1024;

/** Text written so far and not yet handed out (once `full`, or when a file slice or the end is written). */
class Pending {
  text = '';

  get full(): boolean {
    return this.text.length >= CHUNK_CHARS;
  }

  async *flush(): AsyncGenerator<string> {
    yield this.text;
    this.text = '';
    await nextTurn();
  }
}

/**
 * The export of GET /_mock/state as JSON text in pieces, the same bytes as
 * `JSON.stringify(exportState(tenant))`, yielding to the event loop between pieces: a tenant with
 * an 80 MB file, 100,000 tasks or as many scheduled jobs never holds up other tenants' requests for
 * long, and the whole document never sits in memory at once. What the export holds (which tasks,
 * files, deliveries and jobs) is fixed when it starts; each object is written as the stream
 * reaches it.
 */
export async function* stateChunks(tenant: Tenant): AsyncGenerator<string> {
  // The v2 catalog (deliveries, schemas, datasets of up to 10,000 tasks each) is written piece by piece, last in
  // the head as exportState places it; its records are never changed once added, so taking the lists now fixes it.
  const { v2: _inPieces, ...head } = stateHead(tenant, false);
  const v2 = tenant.v2.isEmpty ? undefined : tenant.v2.toState();
  const tasks = tenant.tasks.all();
  const files = tenant.files.all();
  const tail = JSON.stringify(stateTail(tenant));
  const out = new Pending();
  out.text = JSON.stringify(head).slice(0, -1);
  if (v2) yield* catalogChunks(out, v2);
  out.text += ',"tasks":[';
  yield* listChunks(out, tasks, stateTask);
  out.text += '],"files":[';
  yield* fileChunks(out, files);
  out.text += `],${tail.slice(1, -1)},"callbacks":[`;
  // The journal and the jobs as they are when the stream reaches them, so they agree with each
  // other (a retry scheduled meanwhile is there with the attempt before it).
  const callbacks = [...tenant.callbacks];
  yield* listChunks(out, callbacks, (delivery) => delivery);
  out.text += '],"scheduled_jobs":[';
  yield* listChunks(out, jobsOf(tenant, tasks, callbacks), (job) => job);
  out.text += ']}';
  yield* out.flush();
}

/**
 * The tenant's jobs now, less those naming a task or delivery the export does not hold (made while
 * it was written): an import checks every job's task and delivery are there.
 */
function jobsOf(tenant: Tenant, tasks: TaskRecord[], callbacks: CallbackDelivery[]): ScheduledJob[] {
  let taskIds: Set<string> | undefined;
  const deliveryIds = new Set(callbacks.map((delivery) => delivery.id));
  return tenant.jobs.filter((job) => {
    if (job.kind === 'deliver_callback') return deliveryIds.has(job.delivery_id);
    taskIds ??= new Set(tasks.map((record) => record.task.task_id));
    return taskIds.has(job.task_id);
  });
}

/** `,"v2":{...}`: deliveries and schemas one by one, each dataset delivery by delivery. */
async function* catalogChunks(out: Pending, v2: V2CatalogState): AsyncGenerator<string> {
  out.text += ',"v2":{"deliveries":[';
  yield* listChunks(out, v2.deliveries, (delivery) => delivery);
  out.text += '],"schemas":[';
  yield* listChunks(out, v2.schemas, (schema) => schema);
  out.text += '],"datasets":[';
  for (const [i, { deliveries, ...dataset }] of v2.datasets.entries()) {
    out.text += `${i > 0 ? ',' : ''}${JSON.stringify(dataset).slice(0, -1)},"deliveries":[`;
    yield* listChunks(out, deliveries, (delivery) => delivery);
    out.text += ']}';
  }
  out.text += ']}';
}

async function* listChunks<T>(out: Pending, items: T[], exported: (item: T) => unknown): AsyncGenerator<string> {
  for (const [i, item] of items.entries()) {
    out.text += (i > 0 ? ',' : '') + JSON.stringify(exported(item));
    if (out.full) yield* out.flush();
  }
}

/** Each file as services/file-state.ts exports it, its bytes last: written slice by slice. */
async function* fileChunks(out: Pending, files: ReturnType<Tenant['files']['all']>): AsyncGenerator<string> {
  for (const [i, stored] of files.entries()) {
    const { file } = stored;
    const bytes = FileCollection.bytesOf(stored);
    const record = JSON.stringify({ ...file, content_base64: null });
    out.text += i > 0 ? ',' : '';
    if (bytes === null) {
      out.text += record;
      continue;
    }
    out.text += `${record.slice(0, -'null}'.length)}"`;
    for (let at = 0; at < bytes.length; at += FILE_SLICE_BYTES) {
      out.text += bytes.subarray(at, at + FILE_SLICE_BYTES).toString('base64');
      yield* out.flush();
    }
    out.text += '"}';
  }
}
