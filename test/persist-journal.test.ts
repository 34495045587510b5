import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../src/persist/atomic-file.js';
import { frameLine, readFrames } from '../src/persist/frames.js';
import { JournalFile, type JournalIo, nodeJournalIo } from '../src/persist/journal-file.js';
import { acquireDirLock, DataDirLockedError } from '../src/persist/lock.js';

/** The data directory's disk layer: checksummed records, group commit, the folder lock, atomic files. */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'labelmock-disk-'));
  dirs.push(dir);
  return dir;
}

describe('journal records', () => {
  it('read back as written, unicode included', () => {
    const lines = ['{"a":1}', '{"name":"Zoë 🚗"}', '{}'];
    const read = readFrames(Buffer.from(lines.map(frameLine).join('')));
    expect(read).toEqual({ lines, goodBytes: Buffer.byteLength(lines.map(frameLine).join('')) });
  });

  it('a torn tail ends the read at the last whole record, naming what was cut', () => {
    const whole = frameLine('{"a":1}');
    const read = readFrames(Buffer.from(`${whole}${frameLine('{"b":2}').slice(0, 12)}`));
    expect(read.lines).toEqual(['{"a":1}']);
    expect(read.goodBytes).toBe(whole.length);
    expect(read.problem).toBe(`torn record at byte ${whole.length} (record 2); 12 bytes cut`);
  });

  it('a changed byte fails its checksum: that record and all after it are cut', () => {
    const text = ['{"a":1}', '{"b":2}', '{"c":3}'].map(frameLine).join('');
    const damaged = Buffer.from(text.replace('"b":2', '"b":7'));
    const read = readFrames(damaged);
    expect(read.lines).toEqual(['{"a":1}']);
    expect(read.problem).toMatch(/^checksum mismatch at byte 17 \(record 2\)/);
  });

  it('garbage never throws', () => {
    for (const input of ['', '\n', 'x\n', 'abcdefgh\n', 'abcdefgh x\n', '\u0000'.repeat(50)]) {
      const read = readFrames(Buffer.from(input));
      expect(read.lines).toEqual([]);
      expect(read.goodBytes).toBe(0);
    }
  });
});

describe('JournalFile', () => {
  /** Disk calls that count datasyncs and can be told to fail. */
  function countingIo(fail: { write?: number; truncate?: boolean } = {}) {
    const counts = { datasync: 0, write: 0 };
    const io: JournalIo = {
      write: (fd, data, position) => {
        counts.write += 1;
        if (fail.write !== undefined && fail.write-- > 0) {
          // A partial write first, as a full disk leaves one.
          return nodeJournalIo.write(fd, data.subarray(0, 3), position).then(() => {
            throw new Error('ENOSPC: no space left on device');
          });
        }
        return nodeJournalIo.write(fd, data, position);
      },
      datasync: (fd) => {
        counts.datasync += 1;
        return nodeJournalIo.datasync(fd);
      },
      truncate: (fd, length) =>
        fail.truncate ? Promise.reject(new Error('EIO: i/o error')) : nodeJournalIo.truncate(fd, length),
    };
    return { io, counts };
  }

  it('appends made while a write is under way share the next write (group commit), in order', async () => {
    const path = join(folder(), 'j.ndjson');
    const { io, counts } = countingIo();
    const journal = JournalFile.open(path, io);
    const lines = Array.from({ length: 50 }, (_, i) => frameLine(JSON.stringify({ i })));
    await Promise.all(lines.map((line) => journal.append(line)));
    expect(readFileSync(path, 'utf8')).toBe(lines.join(''));
    expect(counts.datasync).toBeLessThan(50);
    expect(journal.size).toBe(Buffer.byteLength(lines.join('')));
    await journal.close();
    await expect(journal.append(frameLine('{}'))).rejects.toThrow('journal is closed');
  });

  it('a failed write rejects its group with the reason and is cut off; the next append works', async () => {
    const path = join(folder(), 'j.ndjson');
    const { io } = countingIo({ write: 1 });
    const journal = JournalFile.open(path, io);
    await expect(journal.append(frameLine('{"lost":1}'))).rejects.toThrow(
      'journal write failed: ENOSPC: no space left on device',
    );
    expect(readFileSync(path, 'utf8')).toBe('');
    await journal.append(frameLine('{"kept":1}'));
    expect(readFrames(readFileSync(path)).lines).toEqual(['{"kept":1}']);
    await journal.close();
  });

  it('when the cut fails too, the journal refuses every later append', async () => {
    const { io } = countingIo({ write: 1, truncate: true });
    const journal = JournalFile.open(join(folder(), 'j.ndjson'), io);
    await expect(journal.append(frameLine('{}'))).rejects.toThrow(/ENOSPC/);
    expect(journal.broken).toMatch(/could not be cut off \(EIO: i\/o error\)/);
    await expect(journal.append(frameLine('{}'))).rejects.toThrow(/journal is unusable since/);
    await journal.close();
  });
});

describe('folder lock', () => {
  it('refuses a folder a live process holds, naming its pid', () => {
    const dir = folder();
    writeFileSync(join(dir, 'lock'), JSON.stringify({ pid: process.ppid }));
    expect(() => acquireDirLock(dir)).toThrow(DataDirLockedError);
    expect(() => acquireDirLock(dir)).toThrow(`is in use by another labelmock (pid ${process.ppid})`);
  });

  it('takes over a lock whose process is gone, and release removes it', () => {
    const dir = folder();
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(join(dir, 'lock'), JSON.stringify({ pid: gone }));
    const lock = acquireDirLock(dir);
    expect(JSON.parse(readFileSync(join(dir, 'lock'), 'utf8')).pid).toBe(process.pid);
    lock.release();
    expect(existsSync(join(dir, 'lock'))).toBe(false);
  });
});

describe('writeFileAtomic', () => {
  it('writes what a generator yields and leaves no temporary file', async () => {
    const dir = folder();
    function* parts() {
      for (let i = 0; i < 1000; i += 1) yield `${i}\n`;
    }
    const bytes = await writeFileAtomic(join(dir, 'f'), parts());
    expect(readFileSync(join(dir, 'f'), 'utf8').split('\n')).toHaveLength(1001);
    expect(bytes).toBe(readFileSync(join(dir, 'f')).length);
    expect(readdirSync(dir)).toEqual(['f']);
  });

  it('a failing source leaves the old file whole and no temporary file', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'f'), 'old');
    async function* failing() {
      yield 'new';
      throw new Error('source failed');
    }
    await expect(writeFileAtomic(join(dir, 'f'), failing())).rejects.toThrow('source failed');
    expect(readFileSync(join(dir, 'f'), 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['f']);
  });
});
