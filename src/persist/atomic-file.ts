import { closeSync, fsyncSync, openSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Makes a rename in `dir` durable; platforms that cannot fsync a folder are left as they are. */
function fsyncDir(dir: string): void {
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

/**
 * Writes the chunks to `path` so that a crash leaves either the old file or the whole new one: into
 * `path.tmp`, fsynced, renamed over `path`, the folder fsynced. Chunks are written as they come (a
 * snapshot may be hundreds of MB). Answers the bytes written.
 */
export async function writeFileAtomic(
  path: string,
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
): Promise<number> {
  const tmp = `${path}.tmp`;
  const handle = await open(tmp, 'w');
  let bytes = 0;
  try {
    try {
      for await (const chunk of chunks) {
        const data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
        for (let done = 0; done < data.length; ) done += (await handle.write(data, done)).bytesWritten;
        bytes += data.length;
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
  fsyncDir(dirname(path));
  return bytes;
}
