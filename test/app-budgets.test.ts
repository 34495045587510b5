import { describe, expect, it } from 'vitest';
import { fitHeldRequests, openFilesLimit } from '../src/config/descriptors.js';
import { JOURNAL_BODY_CHARS } from '../src/domain/journal/limits.js';
import { formOf, upload } from './file-helpers.js';
import { basic, imageRequest, makeApp, type TestApp } from './helpers.js';
import { SseReader } from './sse-reader.js';

/** App-wide budgets: per-tenant caps multiply by the number of keys, these do not. */

async function subscribe(t: TestApp, key: string) {
  const res = await t.app.request('/_mock/events', { headers: { authorization: basic(key) } });
  expect(res.status).toBe(200);
  const reader = new SseReader(res.body);
  await reader.next();
  return reader;
}

describe('app-wide budgets', () => {
  it('GET /_mock/events of many keys stops at --max-held-requests (503); other requests still answer', async () => {
    const t = makeApp({ config: { maxHeldRequests: 3 } });
    const streams = [await subscribe(t, 'test_a'), await subscribe(t, 'test_b'), await subscribe(t, 'test_c')];
    const refused = await t.call('GET', '/_mock/events', { key: 'test_d' });
    expect(refused.status).toBe(503);
    expect(refused.body.error).toMatch(/already holds 3 long-lived requests .*--max-held-requests/);
    expect(refused.headers.get('retry-after')).toBe('1');
    // A delay holds its connection too: refused while the budget is spent, before it waits.
    await t.call('POST', '/_mock/faults', { key: 'test_d', body: { path: '/v1/tasks', delay_ms: 60_000 } });
    expect((await t.call('GET', '/v1/tasks', { key: 'test_d' })).status).toBe(503);
    expect((await t.call('GET', '/v1/projects', { key: 'test_d' })).status).toBe(200);
    await streams[0]?.cancel();
    await expect.poll(() => t.app.services.events.held.count).toBe(2);
    await subscribe(t, 'test_d');
  });

  it('one key with 80 hanging requests holds only its share of --max-held-requests; others still stream', async () => {
    const t = makeApp({ config: { maxHeldRequests: 64 } });
    await t.call('POST', '/_mock/faults', { key: 'test_greedy', body: { path: '/v1/tasks', fault: 'hang' } });
    const aborts = Array.from({ length: 80 }, () => new AbortController());
    const answered: Response[] = [];
    for (const abort of aborts) {
      const headers = { authorization: basic('test_greedy') };
      void Promise.resolve(t.app.request('/v1/tasks', { headers, signal: abort.signal })).then((res) =>
        answered.push(res),
      );
    }
    // 16 (a quarter of 64) hang; the other 64 of the greedy key are refused at once, naming its share.
    await expect.poll(() => answered.length).toBe(64);
    expect(answered.map((res) => res.status)).toEqual(Array(64).fill(503));
    const refusal = (await answered[0]?.json()) as { error: string };
    expect(refusal.error).toMatch(/this key's tenant already holds 16 long-lived requests .*a quarter of --max-held/);
    expect(t.app.services.events.held.heldBy('test:greedy')).toBe(16);
    // Another key streams and lists as before.
    const stream = await subscribe(t, 'test_polite');
    expect((await t.call('GET', '/v1/tasks', { key: 'test_polite' })).status).toBe(200);
    await stream.cancel();
    for (const abort of aborts) abort.abort();
  });

  it('request journals of all tenants together stay within --max-journal-bytes; the largest gives way', async () => {
    // Counts and bytes, not times: 30 journaled creations of a body near the entry limit each, a budget
    // that holds only some of them. Nothing here depends on how fast the machine is.
    const BUDGET_BYTES = 400_000;
    const CREATED = 30;
    const t = makeApp({ config: { maxJournalBytes: BUDGET_BYTES } });
    const big = { ...imageRequest(), metadata: { note: 'x'.repeat(JOURNAL_BODY_CHARS) } };
    for (let i = 0; i < CREATED; i += 1) {
      await t.call('POST', '/v1/task/imageannotation', { key: 'test_busy', body: big });
    }
    await t.call('POST', '/v1/task/imageannotation', { key: 'test_quiet', body: imageRequest() });
    const busy = (await t.call('GET', '/_mock/requests', { key: 'test_busy' })).body.requests;
    const quiet = (await t.call('GET', '/_mock/requests', { key: 'test_quiet' })).body.requests;
    expect(quiet).toHaveLength(1);
    // The busy tenant gave way: some of its entries went (not all of them).
    expect(busy.length).toBeGreaterThan(0);
    expect(busy.length).toBeLessThan(CREATED);
    // The newest stay: what went were the oldest.
    expect(busy[0].id).toBe(`req_${CREATED}`);
    expect(busy.map((entry: { id: string }) => entry.id)).not.toContain('req_1');
    const tenants = t.app.services.store.allTenants();
    const heldBytes = tenants.reduce((sum, tenant) => sum + (tenant.requestJournal?.bytes ?? 0), 0);
    expect(heldBytes).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('uploads being read count against --max-upload-memory-bytes as their bytes arrive, before kept', async () => {
    const t = makeApp({ config: { maxUploadMemoryBytes: 64 * 1024 } });
    // A body that streams in pieces and never ends until told: the upload is mid-read while the next one comes.
    let feed!: ReadableStreamDefaultController<Uint8Array>;
    const boundary = 'b0undary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n`;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        feed = controller;
        controller.enqueue(new TextEncoder().encode(head));
        controller.enqueue(new Uint8Array(48 * 1024));
      },
    });
    const first = upload(t, { body, contentType: `multipart/form-data; boundary=${boundary}` }, { key: 'test_slow' });
    await expect.poll(() => t.app.services.uploads.readingBytes).toBeGreaterThan(48 * 1024);
    // 48 KiB of the first are counted while it is read: a second of 20 KiB does not fit beside it.
    const second = await upload(
      t,
      formOf({}, { filename: 'b.bin', type: 'application/octet-stream', content: 'y'.repeat(20 * 1024) }),
      { key: 'test_other' },
    );
    expect(second.status).toBe(503);
    expect(second.body.error).toMatch(
      /uploads being read to \d+ more \(\+\d+ for this one\).*--max-upload-memory-bytes/,
    );
    // The first, finished, is stored; what it counted while read no longer does.
    feed.enqueue(new TextEncoder().encode(`\r\n--${boundary}--\r\n`));
    feed.close();
    expect((await first).status).toBe(200);
    expect(t.app.services.uploads.readingBytes).toBe(0);
  });

  it('a multipart body journals its first 10 parts, names cut at 100 characters, and says it was cut', async () => {
    const t = makeApp();
    await t.call('POST', '/v1/projects', { key: 'test_parts', body: { type: 'imageannotation', name: 'p' } });
    const long = 'n'.repeat(78_000);
    const named = formOf(
      { project_name: 'p', display_name: 'a.png' },
      { filename: `${long}.png`, type: 'image/png', content: 'png' },
    );
    expect((await upload(t, named, { key: 'test_parts' })).status).toBe(200);
    const many = formOf(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}`, 'v'])), {
      filename: 'a.png',
      type: 'image/png',
      content: 'png',
    });
    await upload(t, many, { key: 'test_parts' });
    const [manyEntry, longEntry] = (await t.call('GET', '/_mock/requests?path=/v1/files/upload', { key: 'test_parts' }))
      .body.requests;
    expect(longEntry.truncated).toBe(true);
    expect(longEntry.parts.map((p: { name: string }) => p.name)).toEqual(['project_name', 'display_name', 'file']);
    expect(longEntry.parts[2].filename).toHaveLength(100);
    expect(manyEntry.truncated).toBe(true);
    expect(manyEntry.parts).toHaveLength(10);
  });

  it('callback journals of all tenants stay within --max-callback-journal-bytes; the largest gives way', async () => {
    const BUDGET_BYTES = 20_000;
    const t = makeApp({ config: { maxCallbackJournalBytes: BUDGET_BYTES } });
    // E-mail targets are journaled as recorded (finished) at once: no receiver, nothing in flight.
    const completed = async (key: string) => {
      const task = (
        await t.call('POST', '/v1/task/imageannotation', {
          key,
          body: { ...imageRequest(), callback_url: 'ops@example.com' },
        })
      ).body;
      expect((await t.call('POST', `/_mock/tasks/${task.task_id}/complete`, { key })).status).toBe(200);
      return task.task_id as string;
    };
    const quiet = await completed('test_quiet');
    const quietBytes = t.app.services.callbackJournals.bytes;
    const busy: string[] = [];
    for (let i = 0; i < 30; i += 1) busy.push(await completed('test_busy'));
    const journal = async (key: string) =>
      (await t.call('GET', '/_mock/callbacks', { key })).body.deliveries.map((d: { task_id: string }) => d.task_id);
    expect(await journal('test_quiet')).toEqual([quiet]);
    const kept = await journal('test_busy');
    // The busy tenant gave way: its oldest went, its newest stay, in order.
    expect(kept).not.toContain(busy[0]);
    expect(kept).toContain(busy[29]);
    expect(kept).toEqual(busy.slice(busy.indexOf(kept[0])));
    expect(t.app.services.callbackJournals.bytes).toBeLessThanOrEqual(BUDGET_BYTES);
    // A reset forgets what the tenant's journal held: what is left is the quiet tenant's.
    expect((await t.call('POST', '/_mock/reset', { key: 'test_busy' })).status).toBe(200);
    expect(t.app.services.callbackJournals.bytes).toBe(quietBytes);
  });

  it('POST /v1/files/upload past --max-upload-memory-bytes across tenants is a 503; a reset frees room', async () => {
    const t = makeApp({ config: { maxUploadMemoryBytes: 1000 } });
    const file = (key: string) =>
      upload(t, formOf({}, { filename: 'a.bin', type: 'application/octet-stream', content: 'x'.repeat(600) }), {
        key,
      });
    expect((await file('test_a')).status).toBe(200);
    const refused = await file('test_b');
    expect(refused.status).toBe(503);
    // Refused as its bytes arrive: the 600 stored, and what of this upload (file and form) came so far.
    expect(refused.body.error).toMatch(/come to 600 bytes \(\+\d+ for this one\).*--max-upload-memory-bytes/);
    expect((await t.call('POST', '/_mock/reset', { key: 'test_a' })).status).toBe(200);
    expect((await file('test_b')).status).toBe(200);
  });

  it('--max-held-requests is lowered to keep descriptors in reserve under the open-file limit', () => {
    const limits =
      'Limit                     Soft Limit           Hard Limit           Units\n' +
      'Max open files            1024                 4096                 files\n';
    expect(openFilesLimit(() => limits)).toBe(1024);
    expect(openFilesLimit(() => 'nothing here')).toBeUndefined();
    expect(fitHeldRequests(512, 64, 1024)).toBe(512);
    expect(fitHeldRequests(2000, 64, 1024)).toBe(1024 - 256 - 64);
    expect(fitHeldRequests(512, 64, 100)).toBe(1);
    expect(fitHeldRequests(512, 64, undefined)).toBe(512);
  });
});
