import type { Tenant } from '../store/tenant.js';
import { stateHead, stateTail, stateTask } from './tenant-state.js';

/** About this much JSON text is written per turn of the event loop. */
const CHUNK_CHARS = 1024 * 1024;
/** File bytes are base64-encoded this many at a time; a multiple of 3, so the slices join into one text. */
const FILE_SLICE_BYTES = 3 * 256 * 1024;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The export of GET /_mock/state as JSON text in pieces, the same bytes as
 * `JSON.stringify(exportState(tenant))`, yielding to the event loop between pieces: a tenant with
 * an 80 MB file or 100,000 tasks never holds up other tenants' requests for long, and the whole
 * document never sits in memory at once. What the export holds (which tasks and files) is fixed
 * when it starts; each object is written as the stream reaches it.
 */
export async function* stateChunks(tenant: Tenant): AsyncGenerator<string> {
  const head = JSON.stringify(stateHead(tenant));
  const tasks = tenant.tasks.all();
  const files = tenant.files.all();
  const tail = JSON.stringify(stateTail(tenant));
  let out = `${head.slice(0, -1)},"tasks":[`;
  for (const [i, task] of tasks.entries()) {
    out += (i > 0 ? ',' : '') + JSON.stringify(stateTask(task));
    if (out.length >= CHUNK_CHARS) {
      yield out;
      out = '';
      await nextTurn();
    }
  }
  out += '],"files":[';
  for (const [i, { file, bytes }] of files.entries()) {
    // The record as services/file-state.ts exports it, its bytes last: written slice by slice.
    const record = JSON.stringify({ ...file, content_base64: null });
    out += i > 0 ? ',' : '';
    if (bytes === null) {
      out += record;
      continue;
    }
    out += `${record.slice(0, -'null}'.length)}"`;
    for (let at = 0; at < bytes.length; at += FILE_SLICE_BYTES) {
      out += bytes.subarray(at, at + FILE_SLICE_BYTES).toString('base64');
      yield out;
      out = '';
      await nextTurn();
    }
    out += '"}';
  }
  out += `],${tail.slice(1)}`;
  yield out;
}
