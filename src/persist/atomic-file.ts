import { closeSync, fsyncSync, openSync } from 'node:fs';
import { type FileHandle, open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SECRET_FILE_MODE } from './modes.js';

/**
 * Makes a rename in `dir` durable (the new name lives in the folder's own data). Platforms that cannot
 * fsync a folder (Windows answers EISDIR or EPERM, some filesystems EINVAL) are left as they are.
 */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL') throw err;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Small chunks (a snapshot yields one per record) are gathered to about this many characters per write. */
const BATCH_CHARS = 1 << 20;

async function writeAll(handle: FileHandle, data: Uint8Array): Promise<void> {
  for (let done = 0; done < data.length; ) {
    const { bytesWritten } = await handle.write(data, done);
    if (bytesWritten <= 0) throw new Error(`wrote ${bytesWritten} of ${data.length - done} bytes`);
    done += bytesWritten;
  }
}

/** Writes the chunks as they come, each write awaited (the source waits on the disk), and answers the bytes. */
async function writeChunks(
  handle: FileHandle,
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
): Promise<number> {
  let bytes = 0;
  let batch: string[] = [];
  let batchChars = 0;
  const put = async (data: Uint8Array) => {
    await writeAll(handle, data);
    bytes += data.length;
  };
  const flushBatch = async () => {
    if (batch.length === 0) return;
    const text = batch.join('');
    batch = [];
    batchChars = 0;
    await put(Buffer.from(text, 'utf8'));
  };
  for await (const chunk of chunks) {
    if (typeof chunk === 'string') {
      batch.push(chunk);
      batchChars += chunk.length;
      if (batchChars >= BATCH_CHARS) await flushBatch();
    } else {
      await flushBatch();
      await put(chunk);
    }
  }
  await flushBatch();
  return bytes;
}

/**
 * Writes the chunks to `path` so that a crash leaves either the old file or the whole new one: into
 * `path.tmp`, fsynced, renamed over `path`, the folder fsynced. Chunks are never joined whole (a
 * snapshot may be hundreds of MB). Answers the bytes written. Two writes to one path at once would
 * share the `.tmp`: callers keep them apart.
 */
export async function writeFileAtomic(
  path: string,
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
): Promise<number> {
  const tmp = `${path}.tmp`;
  const handle = await open(tmp, 'w', SECRET_FILE_MODE);
  let bytes: number;
  try {
    bytes = await writeChunks(handle, chunks);
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    throw err;
  }
  try {
    await handle.close();
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
  fsyncDir(dirname(path));
  return bytes;
}
