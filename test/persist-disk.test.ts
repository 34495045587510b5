import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fsyncDir, writeFileAtomic } from '../src/persist/atomic-file.js';
import { frameLine, readFrames } from '../src/persist/frames.js';
import { JournalFile, type JournalIo, nodeJournalIo } from '../src/persist/journal-file.js';
import { acquireDirLock, DataDirLockedError } from '../src/persist/lock.js';

/** The data directory's disk layer on its own: records, the journal file, the folder lock, atomic files. */

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'labelmock-'));
  dirs.push(dir);
  return dir;
}

const framed = (values: unknown[]) => values.map((value) => frameLine(JSON.stringify(value)));

describe('frames', () => {
  it('read back as written, unicode included', () => {
    const lines = ['{"a":1}', JSON.stringify({ name: 'Zoë 🚗 — 日本語', nl: 'a\nb' }), '{}', '"\\u2028"'];
    const buf = Buffer.from(lines.map(frameLine).join(''), 'utf8');
    expect(readFrames(buf)).toEqual({ lines, goodBytes: buf.length });
    expect(frameLine('{"a":1}')).toMatch(/^[0-9a-f]{8} \{"a":1\}\n$/);
  });

  it('refuses a record holding a raw newline', () => {
    expect(() => frameLine('{"a":\n1}')).toThrow('raw newline');
  });

  it('a torn tail ends the read at the last whole record and says what was cut', () => {
    const [first = '', second = ''] = framed([{ a: 'é' }, { b: 2 }]);
    const firstBytes = Buffer.byteLength(first);
    const read = readFrames(Buffer.from(first + second.slice(0, 12)));
    expect(read.lines).toEqual(['{"a":"é"}']);
    expect(read.goodBytes).toBe(firstBytes);
    expect(read.problem).toBe(`torn record at byte ${firstBytes} (record 2); 12 bytes cut`);
  });

  it('every prefix of a good file reads as its whole records', () => {
    const records = framed([{ a: 1 }, { b: 'ü' }, { c: [1, 2, 3] }]);
    const buf = Buffer.from(records.join(''));
    const ends = records.map((_, i) => Buffer.byteLength(records.slice(0, i + 1).join('')));
    for (let length = 0; length <= buf.length; length += 1) {
      const whole = ends.filter((end) => end <= length);
      const read = readFrames(buf.subarray(0, length));
      expect(read.lines).toHaveLength(whole.length);
      expect(read.goodBytes).toBe(whole.at(-1) ?? 0);
      expect(read.problem === undefined).toBe(length === (whole.at(-1) ?? 0));
    }
  });

  it('a flipped byte in the middle record fails its checksum: it and everything after are cut', () => {
    const records = framed([{ a: 1 }, { b: 2 }, { c: 3 }]);
    const buf = Buffer.from(records.join(''));
    const start = Buffer.byteLength(records[0] ?? '');
    const at = buf.indexOf('"b":2', start) + 3;
    buf[at] = (buf[at] ?? 0) ^ 0x01; // '2' becomes '3'
    const read = readFrames(buf);
    expect(read.lines).toEqual(['{"a":1}']);
    expect(read.goodBytes).toBe(start);
    expect(read.problem).toBe(`checksum mismatch at byte ${start} (record 2); ${buf.length - start} bytes cut`);
  });

  it('a line without the checksum layout is malformed', () => {
    const good = frameLine('{"a":1}');
    const read = readFrames(Buffer.from(`${good}{"no":"checksum"}\n`));
    expect(read.lines).toEqual(['{"a":1}']);
    expect(read.problem).toMatch(new RegExp(`^malformed record at byte ${Buffer.byteLength(good)} \\(record 2\\)`));
    expect(readFrames(Buffer.from(good.toUpperCase())).problem).toMatch(/^checksum mismatch at byte 0/);
  });

  it('garbage never throws and yields no records', () => {
    const inputs = ['', '\n', 'x\n', 'abcdefgh\n', 'abcdefgh x\n', '\u0000'.repeat(50), '\n\n\n', ' '.repeat(9)];
    const buffers = inputs.map((input) => Buffer.from(input));
    // A fixed-seed generator: the same "random" bytes every run.
    let seed = 0x2545f491;
    const next = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return seed >>> 0;
    };
    for (let i = 0; i < 300; i += 1) {
      const buf = Buffer.alloc(next() % 200);
      for (let j = 0; j < buf.length; j += 1) buf[j] = next() % 4 === 0 ? 10 : next() & 0xff;
      buffers.push(buf);
    }
    for (const buf of buffers) {
      const read = readFrames(buf);
      expect(read.lines).toEqual([]);
      expect(read.goodBytes).toBe(0);
      expect(read.problem === undefined).toBe(buf.length === 0);
    }
  });
});

/** Disk calls that count, can hold datasyncs back, and can be told to fail. */
function testIo(options: { failWrite?: number; failDatasync?: number; failTruncate?: boolean; maxWrite?: number }) {
  const counts = { write: 0, datasync: 0, truncate: 0 };
  const held: (() => void)[] = [];
  let holding = false;
  const io: JournalIo = {
    write: async (fd, data, position) => {
      counts.write += 1;
      if (options.failWrite !== undefined && options.failWrite-- > 0) {
        // Part of the data first, as a full disk leaves it.
        await nodeJournalIo.write(fd, data.subarray(0, 5), position);
        throw new Error('ENOSPC: no space left on device, write');
      }
      return nodeJournalIo.write(fd, data.subarray(0, options.maxWrite ?? data.length), position);
    },
    datasync: async (fd) => {
      counts.datasync += 1;
      if (holding) await new Promise<void>((resolve) => held.push(resolve));
      if (options.failDatasync !== undefined && options.failDatasync-- > 0) throw new Error('EIO: i/o error, fsync');
      return nodeJournalIo.datasync(fd);
    },
    truncate: async (fd, length) => {
      counts.truncate += 1;
      if (options.failTruncate) throw new Error('EROFS: read-only file system, ftruncate');
      return nodeJournalIo.truncate(fd, length);
    },
  };
  /** Datasyncs wait from now on until `release`; `started` resolves once one is waiting. */
  const hold = () => {
    holding = true;
  };
  const release = () => {
    holding = false;
    for (const resolve of held.splice(0)) resolve();
  };
  const waiting = async () => {
    while (held.length === 0) await new Promise((resolve) => setImmediate(resolve));
  };
  return { io, counts, hold, release, waiting };
}

describe('JournalFile', () => {
  it('50 concurrent appends all resolve and land in append order', async () => {
    const path = join(folder(), 'journal.ndjson');
    const journal = JournalFile.open(path);
    const lines = framed(Array.from({ length: 50 }, (_, i) => ({ i, s: 'ß'.repeat(i) })));
    await Promise.all(lines.map((line) => journal.append(line)));
    expect(readFileSync(path, 'utf8')).toBe(lines.join(''));
    expect(journal.size).toBe(Buffer.byteLength(lines.join('')));
    expect(readFrames(readFileSync(path)).lines).toEqual(lines.map((line) => line.slice(9, -1)));
    await journal.close();
  });

  it('appends made while a datasync is in flight go out together in the next one (group commit)', async () => {
    const path = join(folder(), 'journal.ndjson');
    const { io, counts, hold, release, waiting } = testIo({});
    const journal = JournalFile.open(path, io);
    const lines = framed(Array.from({ length: 50 }, (_, i) => ({ i })));
    hold();
    const first = journal.append(lines[0] ?? '');
    await waiting();
    let settled = false;
    void first.then(() => {
      settled = true;
    });
    const rest = lines.slice(1).map((line) => journal.append(line));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false); // not durable until its datasync is
    expect(counts.write).toBe(1);
    release();
    await Promise.all([first, ...rest]);
    expect(counts.datasync).toBe(2);
    expect(counts.write).toBe(2);
    expect(readFileSync(path, 'utf8')).toBe(lines.join(''));
    await journal.close();
  });

  it('short writes are carried on until every byte is written', async () => {
    const path = join(folder(), 'journal.ndjson');
    const { io, counts } = testIo({ maxWrite: 7 });
    const journal = JournalFile.open(path, io);
    const lines = framed([{ a: 'ünïcødé' }, { b: 2 }]);
    await Promise.all(lines.map((line) => journal.append(line)));
    expect(readFileSync(path, 'utf8')).toBe(lines.join(''));
    expect(counts.write).toBeGreaterThan(2);
    await journal.close();
  });

  it('opens an existing file at its end and appends after what it holds', async () => {
    const path = join(folder(), 'journal.ndjson');
    const [old = '', added = ''] = framed([{ old: true }, { added: true }]);
    writeFileSync(path, old);
    const journal = JournalFile.open(path);
    expect(journal.size).toBe(Buffer.byteLength(old));
    await journal.append(added);
    expect(readFileSync(path, 'utf8')).toBe(old + added);
    await journal.close();
  });

  it('a failed write rejects its whole group with the reason, is cut off, and the next append works', async () => {
    const path = join(folder(), 'journal.ndjson');
    const options: { failWrite?: number } = {};
    const { io, counts, hold, release, waiting } = testIo(options);
    const journal = JournalFile.open(path, io);
    const [kept = '', lost1 = '', lost2 = '', after = ''] = framed([{ kept: 1 }, { lost: 1 }, { lost: 2 }, { a: 1 }]);
    await journal.append(kept);
    // Hold the next datasync so that lost1 and lost2 form one group behind a blocker.
    hold();
    const blocker = journal.append(frameLine('{"blocker":1}'));
    await waiting();
    options.failWrite = 1;
    const group = [journal.append(lost1), journal.append(lost2)];
    release();
    await blocker;
    const durable = kept + frameLine('{"blocker":1}');
    for (const append of group) {
      await expect(append).rejects.toThrow('journal write failed: ENOSPC: no space left on device, write');
    }
    expect(counts.truncate).toBe(1);
    expect(readFileSync(path, 'utf8')).toBe(durable);
    expect(journal.size).toBe(Buffer.byteLength(durable));
    expect(journal.broken).toBeUndefined();
    await journal.append(after);
    expect(readFileSync(path, 'utf8')).toBe(durable + after);
    await journal.close();
  });

  it('a group queued behind a failed one is refused with it (it may build on the failed changes)', async () => {
    const path = join(folder(), 'journal.ndjson');
    const options: { failDatasync?: number } = { failDatasync: 1 };
    const { io, hold, release, waiting } = testIo(options);
    const journal = JournalFile.open(path, io);
    const [created = '', updated = '', later = ''] = framed([{ created: 1 }, { updated: 1 }, { later: 1 }]);
    hold();
    const failing = journal.append(created);
    await waiting();
    // Queued while the failing group's datasync is under way.
    const behind = journal.append(updated);
    release();
    await expect(failing).rejects.toThrow('journal datasync failed: EIO: i/o error, fsync');
    await expect(behind).rejects.toThrow('journal datasync failed: EIO: i/o error, fsync');
    expect(readFileSync(path, 'utf8')).toBe('');
    await journal.append(later);
    expect(readFileSync(path, 'utf8')).toBe(later);
    await journal.close();
  });

  it('a failed datasync rejects with the reason and cuts the group off', async () => {
    const path = join(folder(), 'journal.ndjson');
    const options: { failDatasync?: number } = {};
    const { io } = testIo(options);
    const journal = JournalFile.open(path, io);
    const [kept = '', lost = '', after = ''] = framed([{ kept: 1 }, { lost: 1 }, { after: 1 }]);
    await journal.append(kept);
    options.failDatasync = 1;
    await expect(journal.append(lost)).rejects.toThrow('journal datasync failed: EIO: i/o error, fsync');
    expect(readFileSync(path, 'utf8')).toBe(kept);
    await journal.append(after);
    expect(readFileSync(path, 'utf8')).toBe(kept + after);
    await journal.close();
  });

  it('when the cut fails too, the journal is broken and refuses every later append', async () => {
    const path = join(folder(), 'journal.ndjson');
    const options: { failWrite?: number; failTruncate?: boolean } = {};
    const { io, counts, hold, release, waiting } = testIo(options);
    const journal = JournalFile.open(path, io);
    await journal.append(frameLine('{"kept":1}'));
    hold();
    const blocker = journal.append(frameLine('{"blocker":1}'));
    await waiting();
    options.failWrite = 1;
    options.failTruncate = true;
    const failing = journal.append(frameLine('{"lost":1}'));
    release();
    await blocker;
    await expect(failing).rejects.toThrow(/^journal write failed: ENOSPC.*journal is unusable since/);
    expect(journal.broken).toBe('a failed write could not be cut off (EROFS: read-only file system, ftruncate)');
    const writes = counts.write;
    await expect(journal.append(frameLine('{"later":1}'))).rejects.toThrow(
      'journal is unusable since a failed write could not be cut off (EROFS: read-only file system, ftruncate)',
    );
    expect(counts.write).toBe(writes); // refused without touching the disk
    await journal.close();
  });

  it('flush waits for what was appended; after close, appends reject', async () => {
    const path = join(folder(), 'journal.ndjson');
    const journal = JournalFile.open(path);
    const lines = framed([{ a: 1 }, { b: 2 }]);
    const appends = lines.map((line) => journal.append(line));
    await journal.flush();
    expect(readFileSync(path, 'utf8')).toBe(lines.join(''));
    await Promise.all(appends);
    const last = journal.append(frameLine('{"c":3}'));
    await journal.close(); // writes what came before it
    await last;
    expect(readFrames(readFileSync(path)).lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    await expect(journal.append(frameLine('{}'))).rejects.toThrow('journal is closed');
    await journal.close(); // twice is harmless
  });
});

describe('acquireDirLock', () => {
  /** A process that stays alive until the test's cleanup kills it. */
  function liveChild(): number {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    children.push(child);
    if (child.pid === undefined) throw new Error('could not start a child process');
    return child.pid;
  }

  it('creates the folder and a lock naming this process; release removes it, twice is harmless', () => {
    const dir = join(folder(), 'nested', 'data');
    const lock = acquireDirLock(dir);
    const content = JSON.parse(readFileSync(join(dir, 'lock'), 'utf8'));
    expect(content.pid).toBe(process.pid);
    expect(typeof content.host).toBe('string');
    expect(new Date(content.started_at).toISOString()).toBe(content.started_at);
    expect(readdirSync(dir)).toEqual(['lock']);
    lock.release();
    expect(existsSync(join(dir, 'lock'))).toBe(false);
    lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a folder a live process holds, naming its pid', () => {
    const dir = folder();
    const pid = liveChild();
    const lockFile = JSON.stringify({ pid, host: 'elsewhere', started_at: new Date().toISOString() });
    writeFileSync(join(dir, 'lock'), lockFile);
    let error: unknown;
    try {
      acquireDirLock(dir);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect(error).toMatchObject({ dir, pid });
    expect((error as Error).message).toBe(
      `labelmock: ${dir} is in use by another labelmock (pid ${pid}); stop it or pick another --data-dir`,
    );
    expect(readFileSync(join(dir, 'lock'), 'utf8')).toBe(lockFile); // left as it was
    expect(readdirSync(dir)).toEqual(['lock']);
  });

  it('takes over a lock whose process is gone', () => {
    const dir = folder();
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    expect(gone).toBeGreaterThan(0);
    writeFileSync(join(dir, 'lock'), JSON.stringify({ pid: gone }));
    const lock = acquireDirLock(dir);
    expect(JSON.parse(readFileSync(join(dir, 'lock'), 'utf8')).pid).toBe(process.pid);
    expect(readdirSync(dir)).toEqual(['lock']);
    lock.release();
    expect(existsSync(join(dir, 'lock'))).toBe(false);
  });

  it('takes over a lock it cannot read, and one naming this very process', () => {
    for (const content of ['', 'not json', '{"pid":"12"}', '{"pid":-1}', JSON.stringify({ pid: process.pid })]) {
      const dir = folder();
      writeFileSync(join(dir, 'lock'), content);
      const lock = acquireDirLock(dir);
      expect(JSON.parse(readFileSync(join(dir, 'lock'), 'utf8')).pid).toBe(process.pid);
      lock.release();
    }
  });

  it('release leaves a lock another process has taken since', () => {
    const dir = folder();
    const lock = acquireDirLock(dir);
    const other = JSON.stringify({ pid: liveChild() });
    writeFileSync(join(dir, 'lock'), other);
    lock.release();
    expect(readFileSync(join(dir, 'lock'), 'utf8')).toBe(other);
  });
});

describe('writeFileAtomic', () => {
  it('writes what a generator yields, answers the bytes, and leaves no temporary file', async () => {
    const dir = folder();
    function* parts() {
      for (let i = 0; i < 1000; i += 1) yield `${i} é\n`;
    }
    const expected = [...parts()].join('');
    const bytes = await writeFileAtomic(join(dir, 'f'), parts());
    expect(readFileSync(join(dir, 'f'), 'utf8')).toBe(expected);
    expect(bytes).toBe(Buffer.byteLength(expected));
    expect(readdirSync(dir)).toEqual(['f']);
  });

  it('replaces a file with async chunks, strings and bytes mixed, past one batch', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'f'), 'old');
    const big = 'x'.repeat(700_000);
    async function* parts() {
      yield big;
      yield Buffer.from('[bytes]');
      yield big;
      yield big;
      yield '🚗';
    }
    const bytes = await writeFileAtomic(join(dir, 'f'), parts());
    const expected = `${big}[bytes]${big}${big}🚗`;
    expect(readFileSync(join(dir, 'f'), 'utf8')).toBe(expected);
    expect(bytes).toBe(Buffer.byteLength(expected));
    expect(readdirSync(dir)).toEqual(['f']);
  });

  it('a source failing midway leaves the old file whole and no temporary file', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'f'), 'old');
    async function* failing() {
      yield 'new';
      yield 'y'.repeat(2_000_000); // past one batch, so part of the new file was written
      throw new Error('source failed');
    }
    await expect(writeFileAtomic(join(dir, 'f'), failing())).rejects.toThrow('source failed');
    expect(readFileSync(join(dir, 'f'), 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['f']);
  });

  it('fails when the folder is missing, leaving nothing behind', async () => {
    const dir = folder();
    await expect(writeFileAtomic(join(dir, 'missing', 'f'), ['x'])).rejects.toMatchObject({ code: 'ENOENT' });
    expect(readdirSync(dir)).toEqual([]);
    expect(() => fsyncDir(join(dir, 'missing'))).toThrow(/ENOENT/);
    expect(() => fsyncDir(dir)).not.toThrow();
  });
});
