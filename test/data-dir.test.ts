import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DurableOptions } from '../src/persist/durable-state.js';
import { frameLine, readFrames } from '../src/persist/frames.js';
import type { JournalIo } from '../src/persist/journal-file.js';
import { nodeJournalIo } from '../src/persist/journal-file.js';
import { ManualClock } from '../src/runtime/clock.js';
import { randomIds } from '../src/runtime/ids.js';
import { retryOffsetMs } from '../src/services/callbacks.js';
import { formOf, readContent, upload, uploadText } from './file-helpers.js';
import { createImageTask, imageRequest, makeApp, type TestApp } from './helpers.js';

/**
 * --data-dir in process: an app made on a folder, then another made on the same folder (a restart; the
 * first is abandoned, as a kill -9 leaves it: every answered change must already be on disk).
 */

const dirs: string[] = [];
const apps: TestApp[] = [];
afterEach(async () => {
  for (const t of apps.splice(0)) await t.app.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'labelmock-data-'));
  dirs.push(dir);
  return dir;
}

/** An app on `dir` (random ids, as the server uses: a restart must not hand out an id again). */
function open(
  dir: string,
  clock = new ManualClock(),
  persistence: DurableOptions = {},
  fetch?: typeof globalThis.fetch,
) {
  const t = makeApp({
    clock,
    ids: randomIds,
    config: { dataDir: dir },
    persistence: { warn: () => {}, ...persistence },
    fetch,
  });
  apps.push(t);
  return t;
}

/** A restart after a crash: the old app is dropped without closing (its lock names this very process). */
function crashAndReopen(old: TestApp, dir: string, persistence: DurableOptions = {}, fetch?: typeof globalThis.fetch) {
  old.app.dispose();
  apps.splice(apps.indexOf(old), 1);
  return open(dir, old.clock, persistence, fetch);
}

/** What the first test reads before the crash and again after it (Studio last). */
const READ_BACK = [
  '/v1/tasks',
  '/v1/projects/streets',
  '/v1/batches/b1',
  '/v1/teams',
  '/_mock/settings',
  '/_mock/clock',
  '/v1/studio/assignments',
  '/v1/studio/projects/signs/groups',
];

describe('--data-dir', () => {
  it('a restart finds tasks, projects, batches, files, team, Studio, settings, clock, idempotency', async () => {
    const dir = folder();
    const t = open(dir);
    expect((await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name: 'streets' } })).status).toBe(
      200,
    );
    const setParams = { body: { instruction: 'Boxes, v1.' } };
    expect((await t.call('POST', '/v1/projects/streets/setParams', setParams)).status).toBe(200);
    expect((await t.call('POST', '/v1/batches', { body: { project: 'streets', name: 'b1' } })).status).toBe(200);
    const first = await createImageTask(t, { project: 'streets', batch: 'b1', unique_id: 'u-1', tags: ['x'] });
    const idempotent = { headers: { 'Idempotency-Key': 'k-1' }, body: imageRequest({ metadata: { n: 2 } }) };
    const second = await t.call('POST', '/v1/task/imageannotation', idempotent);
    expect(second.status).toBe(200);
    expect((await t.call('POST', `/_mock/tasks/${first.task_id}/complete`, { body: {} })).status).toBe(200);
    const content = randomBytes(5000);
    const uploaded = await upload(t, formOf({ display_name: 'scan' }, { filename: 's.bin', content }));
    expect(uploaded.status).toBe(200);
    expect(
      (await t.call('POST', '/v1/teams/invite', { body: { emails: ['ann@example.com'], team_role: 'member' } })).status,
    ).toBe(200);
    // Studio: a teammate who accepted, assigned to a Studio project and in one of its labeler groups.
    expect((await t.call('POST', '/_mock/teams/accept', { body: { emails: ['ann@example.com'] } })).status).toBe(200);
    const studioProject = { body: { type: 'imageannotation', name: 'signs', studio: true } };
    expect((await t.call('POST', '/v1/projects', studioProject)).status).toBe(200);
    const assignment = { body: { emails: ['ann@example.com'], projects: ['signs'] } };
    expect((await t.call('POST', '/v1/studio/assignments/add', assignment)).status).toBe(200);
    const group = { body: { name: 'night', emails: ['ann@example.com'] } };
    expect((await t.call('POST', '/v1/studio/projects/signs/groups', group)).status).toBe(200);
    const settings = { body: { completion: { mode: 'delay', delay_ms: 5000 } } };
    expect((await t.call('PATCH', '/_mock/settings', settings)).status).toBe(200);
    expect((await t.call('POST', '/_mock/clock/advance', { body: { ms: 3_600_000 } })).status).toBe(200);
    const before = await Promise.all(READ_BACK.map((path) => t.call('GET', path)));

    const again = crashAndReopen(t, dir);
    const after = await Promise.all(READ_BACK.map((path) => again.call('GET', path)));
    expect(after.map((res) => res.body)).toEqual(before.map((res) => res.body));
    expect(after[0]?.body.docs).toHaveLength(2);
    expect(after[6]?.body).toMatchObject({ 'ann@example.com': ['signs'] });
    expect(after[7]?.body).toMatchObject([{ name: 'night', workers: [{ email: 'ann@example.com' }] }]);
    expect(after[1]?.body.param_history.at(-1)).toMatchObject({ instruction: 'Boxes, v1.' });
    // The file's bytes came back from the folder's blobs/, not from memory.
    const read = await readContent(again, uploaded.body.id);
    expect(read.bytes.equals(content)).toBe(true);
    const exported = await again.call('GET', '/_mock/state');
    expect(exported.body.files[0].content_base64).toBe(content.toString('base64'));
    // The idempotent create replays its stored answer; unique_id is still held.
    const replay = await again.call('POST', '/v1/task/imageannotation', idempotent);
    expect(replay.body.task_id).toBe(second.body.task_id);
    const taken = await again.call('POST', '/v1/task/imageannotation', { body: imageRequest({ unique_id: 'u-1' }) });
    expect(taken.status).toBe(409);
  });

  it('a delayed completion and a callback retry made before a crash happen after the restart', async () => {
    const dir = folder();
    const sent: string[] = [];
    const failing = async (url: string | URL | Request) => {
      sent.push(String(url));
      return new Response('down', { status: 500 });
    };
    const t = open(dir, new ManualClock(), {}, failing as typeof fetch);
    const settings = { body: { completion: { mode: 'delay', delay_ms: 60_000 } } };
    expect((await t.call('PATCH', '/_mock/settings', settings)).status).toBe(200);
    const task = await createImageTask(t);
    // A completed task's callback fails its first attempt; the retry waits on the tenant's clock.
    const called = await createImageTask(t, { callback_url: 'https://app.example/hook' });
    expect((await t.call('POST', `/_mock/tasks/${called.task_id}/complete`, { body: {} })).status).toBe(200);
    await expect.poll(() => sent.length).toBe(1);
    await expect
      .poll(async () => (await t.call('GET', '/_mock/callbacks')).body.deliveries[0]?.attempts?.length)
      .toBe(1);
    const pending = await t.call('GET', '/_mock/callbacks');
    expect(pending.body.deliveries[0]).toMatchObject({ state: 'pending', attempts: [{ status_code: 500 }] });
    // The attempt was recorded by the dispatcher, outside any request, so no answer waited for its write; a
    // write's answer waits for everything of the tenant pending (on a loaded machine it may not be on disk yet).
    expect((await t.call('PATCH', '/_mock/settings', settings)).status).toBe(200);

    const answered: string[] = [];
    const ok = async (url: string | URL | Request) => {
      answered.push(String(url));
      return new Response('ok', { status: 200 });
    };
    const again = crashAndReopen(t, dir, {}, ok as typeof fetch);
    expect((await again.call('GET', `/v1/task/${task.task_id}`)).body.status).toBe('pending');
    await again.call('POST', '/_mock/clock/advance', { body: { ms: 3_600_000 } });
    expect((await again.call('GET', `/v1/task/${task.task_id}`)).body.status).toBe('completed');
    await expect.poll(() => answered.filter((url) => url === 'https://app.example/hook').length).toBe(1);
    // The attempt is recorded once the receiver's answer is read, a turn after the send itself.
    await expect
      .poll(async () => (await again.call('GET', '/_mock/callbacks')).body.deliveries[0]?.state)
      .toBe('succeeded');
    const delivered = await again.call('GET', '/_mock/callbacks');
    expect(delivered.body.deliveries[0]).toMatchObject({
      state: 'succeeded',
      attempts: [{ status_code: 500 }, { status_code: 200 }],
    });
  });

  it("a callback's retries journal its progress, not its body again; a restart resends the whole body", async () => {
    const dir = folder();
    const sent: string[] = [];
    const failing = async (_url: string | URL | Request, init?: RequestInit) => {
      sent.push(String(init?.body));
      return new Response('down', { status: 500 });
    };
    const t = open(dir, new ManualClock(), {}, failing as typeof fetch);
    const instruction = 'i'.repeat(200_000);
    const task = await createImageTask(t, { instruction, callback_url: 'https://app.example/hook' });
    await t.call('PATCH', '/_mock/settings', { body: { callbacks: { max_attempts: 8 } } });
    expect((await t.call('POST', `/_mock/tasks/${task.task_id}/complete`, { body: {} })).status).toBe(200);
    await expect.poll(() => sent.length).toBe(1);
    const journalBytes = () =>
      readdirSync(dir)
        .filter((name) => name.startsWith('journal-'))
        .reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
    await expect
      .poll(async () => (await t.call('GET', '/_mock/callbacks')).body.deliveries[0]?.attempts.length)
      .toBe(1);
    const before = journalBytes();
    // One attempt at a time, each journaled on its own (group commit would fold attempts made together).
    for (let attempt = 2; attempt <= 5; attempt += 1) {
      const step = retryOffsetMs(attempt, 8, 1) - retryOffsetMs(attempt - 1, 8, 1);
      await t.call('POST', '/_mock/clock/advance', { body: { ms: step } });
      await expect
        .poll(async () => (await t.call('GET', '/_mock/callbacks')).body.deliveries[0]?.attempts.length)
        .toBe(attempt);
    }
    // Four attempts later the journal grew by far less than one body (each body holds the instruction once).
    expect(journalBytes() - before).toBeLessThan(instruction.length);
    const again = crashAndReopen(t, dir, {}, failing as typeof fetch);
    const [delivery] = (await again.call('GET', '/_mock/callbacks')).body.deliveries;
    expect(delivery.attempts).toHaveLength(5);
    expect(delivery.body.task.instruction).toBe(instruction);
    await again.call('POST', '/_mock/clock/advance', { body: { ms: 24 * 3_600_000 } });
    await expect.poll(() => sent.length).toBeGreaterThan(5);
    expect(sent.at(-1)).toBe(sent[0]);
  });

  it('a torn last record is cut with a warning; everything before it is kept', async () => {
    const dir = folder();
    const t = open(dir);
    const task = await createImageTask(t);
    const journal = readdirSync(dir).find((name) => name.startsWith('journal-'));
    expect(journal).toBeDefined();
    const path = join(dir, journal as string);
    const size = statSync(path).size;
    appendFileSync(path, '1234abcd {"t":"test:acme","tasks":[{"task":');
    const warnings: string[] = [];
    const again = crashAndReopen(t, dir, { warn: (message) => warnings.push(message) });
    expect((await again.call('GET', `/v1/task/${task.task_id}`)).status).toBe(200);
    expect(warnings.join('\n')).toMatch(/torn/);
    expect(statSync(path).size).toBe(size);
  });

  it('a write the disk refuses is a 503 naming why; the change is not kept, and the next one is', async () => {
    const dir = folder();
    let refuse = 0;
    const io: JournalIo = {
      ...nodeJournalIo,
      write: (fd, data, position) => {
        if (refuse > 0) {
          refuse -= 1;
          return Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
        }
        return nodeJournalIo.write(fd, data, position);
      },
    };
    const t = open(dir, new ManualClock(), { io });
    const kept = await createImageTask(t);
    refuse = 1;
    const refused = await t.call('POST', '/v1/task/imageannotation', { body: imageRequest({ unique_id: 'lost' }) });
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ status_code: 503, error: expect.stringMatching(/no space left on device/) });
    expect(refused.headers.get('retry-after')).toBe('1');
    const list = await t.call('GET', '/v1/tasks');
    expect(list.body.docs.map((task: { task_id: string }) => task.task_id)).toEqual([kept.task_id]);
    // The unique_id the refused request held is free again, as the task never was.
    const next = await t.call('POST', '/v1/task/imageannotation', { body: imageRequest({ unique_id: 'lost' }) });
    expect(next.status).toBe(200);
    const again = crashAndReopen(t, dir);
    const ids = (await again.call('GET', '/v1/tasks')).body.docs.map((task: { task_id: string }) => task.task_id);
    expect(ids).toEqual([next.body.task_id, kept.task_id]);
  });

  it('a GET that changes state (send_tasks_to_completed) waits for the disk too: 503 when it refuses', async () => {
    const dir = folder();
    let refuse = 0;
    const io: JournalIo = {
      ...nodeJournalIo,
      write: (fd, data, position) =>
        refuse-- > 0
          ? Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }))
          : nodeJournalIo.write(fd, data, position),
    };
    const t = open(dir, new ManualClock(), { io });
    await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name: 'signs', studio: true } });
    await t.call('POST', '/v1/batches', { body: { project: 'signs', name: 'b1' } });
    const task = await createImageTask(t, { project: 'signs', batch: 'b1' });
    refuse = 1;
    const sent = await t.call('GET', '/v1/studio/projects/signs/send_tasks_to_completed?all_batches=true');
    expect([sent.status, sent.body.error]).toEqual([503, expect.stringMatching(/no space left on device/)]);
    expect((await t.call('GET', `/v1/task/${task.task_id}`)).body.status).toBe('pending');
    const again = crashAndReopen(t, dir);
    expect((await again.call('GET', `/v1/task/${task.task_id}`)).body.status).toBe('pending');
  });

  it("a journal naming a blob outside blobs/ never serves that file's bytes; the start warns", async () => {
    const dir = folder();
    const t = open(dir);
    const uploaded = await upload(t, formOf({}, { filename: 'a.txt', type: 'text/plain', content: 'mine' }));
    expect(uploaded.status).toBe(200);
    t.app.dispose();
    apps.splice(apps.indexOf(t), 1);
    writeFileSync(join(dir, 'outside.txt'), 'secret');
    for (const name of readdirSync(dir).filter((file) => file.startsWith('journal-'))) {
      const { lines } = readFrames(readFileSync(join(dir, name)));
      const edited = lines.map((line) => frameLine(line.replace(/"blob":"[^"]+"/g, '"blob":"../outside.txt"')));
      writeFileSync(join(dir, name), edited.join(''));
    }
    const warnings: string[] = [];
    const again = open(dir, new ManualClock(), { warn: (message) => warnings.push(message) });
    const content = await readContent(again, uploaded.body.id);
    expect(content.status).toBe(404);
    expect(content.bytes.toString()).not.toContain('secret');
    expect(warnings).toEqual([expect.stringContaining('"../outside.txt" is no name labelmock writes')]);
  });

  it('a change to a batch or project (priority, metadata, hold, ontology, pipeline) survives a restart', async () => {
    const dir = folder();
    const t = open(dir);
    await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name: 'p' } });
    await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name: 'studio', studio: true } });
    for (const name of ['b1', 'b2', 'b3']) await t.call('POST', '/v1/batches', { body: { project: 'p', name } });
    const changes: [string, string, unknown][] = [
      ['POST', '/v1/batches/b1/prioritize', { priority: 30 }],
      ['POST', '/v1/batches/b1/setMetadata', { shift: 'night' }],
      ['POST', '/v1/batches/b2/finalize', {}],
      ['POST', '/v2/batch/pause', { batch_name: 'b2' }],
      ['POST', '/v2/batch/cancel', { batch_name: 'b3' }],
      ['POST', '/v1/projects/p/setOntology', { name: 'o1', ontology: ['car'] }],
      ['POST', '/v1/projects/studio/updatePipelineConfig', { pipeline: 'standard_task' }],
    ];
    const reads = ['/v1/batches/b1', '/v2/batch?batch_name=b2', '/v2/batch?batch_name=b3', '/v1/projects/p'];
    reads.push('/v1/projects/studio');
    const readAll = (app: TestApp) => Promise.all(reads.map((path) => app.call('GET', path)));
    // A restart after each change: one a line left out would be lost, whatever changed after it.
    let app = t;
    for (const [method, path, body] of changes) {
      expect((await app.call(method, path, { body })).status).toBe(200);
      const before = await readAll(app);
      app = crashAndReopen(app, dir);
      expect(
        (await readAll(app)).map((res) => res.body),
        path,
      ).toEqual(before.map((res) => res.body));
    }
    const after = await readAll(app);
    const statuses = [after[1]?.body.status, after[2]?.body.status];
    expect([after[0]?.body.priority, ...statuses]).toEqual([30, 'paused', 'cancelled']);
  });

  it("a write serializes the account's projects and batches only when one of them changed", async () => {
    const t = open(folder());
    await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name: 'p' } });
    for (let i = 0; i < 20; i++) await t.call('POST', '/v1/batches', { body: { project: 'p', name: `b${i}` } });
    const batches = t.app.services.store.accountState('acme').batches;
    let walks = 0;
    const all = batches.all.bind(batches);
    batches.all = () => {
      walks++;
      return all();
    };
    for (let i = 0; i < 5; i++) await createImageTask(t, { project: 'p' });
    expect(walks).toBe(0);
    await t.call('POST', '/v1/batches/b3/setMetadata', { body: { n: 1 } });
    await createImageTask(t, { project: 'p' });
    expect(walks).toBe(1);
  });

  it('compaction writes a snapshot, drops older journals, and a restart reads both', async () => {
    const dir = folder();
    const t = open(dir, new ManualClock(), { compactBytes: 20_000, snapshotTasksPerLine: 7 });
    const ids: string[] = [];
    for (let i = 0; i < 40; i += 1) {
      t.clock.advance(1000);
      ids.push((await createImageTask(t, { metadata: { i } })).task_id);
    }
    await expect.poll(() => readdirSync(dir).filter((name) => name.startsWith('snapshot-')).length).toBe(1);
    await t.app.close();
    apps.splice(apps.indexOf(t), 1);
    const names = readdirSync(dir);
    const snapshot = names.find((name) => name.startsWith('snapshot-')) as string;
    const generation = Number(/\d+/.exec(snapshot)?.[0]);
    const journals = names.filter((name) => name.startsWith('journal-')).map((name) => Number(/\d+/.exec(name)?.[0]));
    expect(Math.min(...journals)).toBeGreaterThanOrEqual(generation);
    // One line for the tenant, then its tasks seven to a line.
    const lines = readFileSync(join(dir, snapshot), 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(2);
    expect(lines[0]).toContain('"full":true');
    const again = open(dir, t.clock);
    const listed = await again.call('GET', '/v1/tasks?limit=100');
    expect(listed.body.docs.map((task: { task_id: string }) => task.task_id)).toEqual(ids.reverse());
  });

  it('writes for its owner only: journals, snapshots, blobs and the lock 0600, the folders it makes 0700', async () => {
    const dir = join(folder(), 'made', 'here');
    const t = open(dir, new ManualClock(), { compactBytes: 20_000 });
    for (let i = 0; i < 40; i += 1) await createImageTask(t, { metadata: { i } });
    await uploadText(t, 'secret bytes');
    await expect.poll(() => readdirSync(dir).filter((name) => name.startsWith('snapshot-')).length).toBe(1);
    const modes = (at: string): string[] =>
      readdirSync(at, { withFileTypes: true }).flatMap((entry) => {
        const path = join(at, entry.name);
        const mode = (statSync(path).mode & 0o777).toString(8);
        return [`${entry.name} ${mode}`, ...(entry.isDirectory() ? modes(path) : [])];
      });
    const found = [join(dir, '..'), dir].map((path) => (statSync(path).mode & 0o777).toString(8)).concat(modes(dir));
    expect(found.filter((line) => !/(^| )(600|700)$/.test(line))).toEqual([]);
    expect(found.some((line) => line.startsWith('journal-'))).toBe(true);
    expect(found.some((line) => line.startsWith('blobs '))).toBe(true);
  });

  it('a reset and an import are kept as the whole new state', async () => {
    const dir = folder();
    const t = open(dir);
    await createImageTask(t);
    expect((await t.call('POST', '/_mock/reset')).status).toBe(200);
    const other = await createImageTask(t, {}, 'test_other');
    const exported = await t.call('GET', '/_mock/state', { key: 'test_other' });
    expect((await t.call('PUT', '/_mock/state', { body: exported.body })).status).toBe(200);
    const again = crashAndReopen(t, dir);
    const ids = (await again.call('GET', '/v1/tasks')).body.docs.map((task: { task_id: string }) => task.task_id);
    expect(ids).toEqual([other.task_id]);
  });
});
