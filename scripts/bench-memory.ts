/**
 * Measures what the memory rules promise, in process, heap after a full GC:
 *  - idle tenants: 100,000 new keys doing one GET each (a read must leave nothing behind);
 *  - Idempotency-Key records: cost per stored record, then after one virtual day has passed
 *    (records are swept against the tenant's clock, not only when the same key comes back).
 *  - stored tasks (--tasks N only, then alone): RSS and heap per task for N tasks of bench:http's shape.
 *   npx tsx --expose-gc scripts/bench-memory.ts [--keys N] [--records N] [--tasks N]
 */
import { parseArgs } from 'node:util';
import { createApp, type MockApp } from '../src/app.js';
import { imageBody } from './bench-bodies.js';

const { values } = parseArgs({
  options: { keys: { type: 'string' }, records: { type: 'string' }, tasks: { type: 'string' } },
});
const KEYS = Number(values.keys ?? 100_000);
const RECORDS = Number(values.records ?? 20_000);
const DAY_MS = 24 * 60 * 60 * 1000;
const BODY = JSON.stringify({
  attachment: 'https://example.com/a.jpg',
  instruction: 'Draw a box around every car. '.repeat(20),
  geometries: { box: { objects_to_annotate: ['car', 'truck', 'bus'] } },
  metadata: { source: 'bench', note: 'x'.repeat(200) },
});

const auth = (key: string) => ({
  authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
  'content-type': 'application/json',
});
const gc = (globalThis as { gc?: () => void }).gc;

function settle(): { heap: number; rss: number } {
  for (let i = 0; i < 3; i += 1) gc?.();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, rss: usage.rss };
}

/** Also lets finalizers run: in process, each app.request leaves a registry entry until they do. */
async function settled(): Promise<{ heap: number; rss: number }> {
  for (let i = 0; i < 3; i += 1) await new Promise((resolve) => setImmediate(resolve));
  return settle();
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const line = (label: string, value: string) => console.log(`${label.padEnd(64)} ${value}`);

async function idleTenants(): Promise<void> {
  const app = createApp();
  await app.request('/v1/tasks', { headers: auth('test_warmup') });
  const before = settle();
  for (let i = 0; i < KEYS; i += 1) {
    const res = await app.request('/v1/tasks?limit=1', { headers: auth(`test_idle_${i}`) });
    if (res.status !== 200) throw new Error(`GET answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  }
  const after = settle();
  line(`${KEYS} new keys, one GET /v1/tasks each: heap growth`, mb(after.heap - before.heap));
  line('  per key', `${((after.heap - before.heap) / KEYS).toFixed(0)} bytes`);
  line('  RSS before / after', `${mb(before.rss)} / ${mb(after.rss)}`);
  keep(app);
}

async function createTasks(app: MockApp, withKeys: boolean): Promise<void> {
  for (let i = 0; i < RECORDS; i += 1) {
    const headers = withKeys ? { ...auth('test_idem'), 'idempotency-key': `bench-key-${i}` } : auth('test_idem');
    const res = await app.request('/v1/task/imageannotation', { method: 'POST', headers, body: BODY });
    if (res.status !== 200) throw new Error(`create answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  }
}

/** Two apps with the same tasks, one created with keys: the difference is what the records cost. */
async function idempotencyRecords(): Promise<void> {
  const base = settle();
  const plain = createApp();
  await createTasks(plain, false);
  const plainHeap = settle().heap - base.heap;
  const keyed = createApp();
  await createTasks(keyed, true);
  const keyedHeap = settle().heap - base.heap - plainHeap;
  line(`${RECORDS} task creations with an Idempotency-Key: records cost`, mb(keyedHeap - plainHeap));
  line('  per record', `${((keyedHeap - plainHeap) / RECORDS).toFixed(0)} bytes`);
  const advance = await keyed.request('/_mock/clock/advance', {
    method: 'POST',
    headers: auth('test_idem'),
    body: JSON.stringify({ ms: DAY_MS }),
  });
  if (advance.status !== 200) throw new Error(`clock advance answered ${advance.status}`);
  const afterExpiry = settle().heap - base.heap - plainHeap;
  line('  after one virtual day (records expired)', `${mb(afterExpiry - plainHeap)} for ${RECORDS} records`);
  keep(plain, keyed);
}

const taskBody = (n: number) => JSON.stringify(imageBody(n));

/** `count` tasks of bench:http's shape in one tenant: what each stored task costs. */
async function storedTasks(count: number): Promise<void> {
  const app = createApp();
  const post = async (path: string, body: string) => {
    const res = await app.request(path, { method: 'POST', headers: auth('test_tasks'), body });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  };
  await post('/v1/projects', JSON.stringify({ type: 'imageannotation', name: 'p' }));
  await post('/v1/batches', JSON.stringify({ project: 'p', name: 'b' }));
  const before = await settled();
  for (let i = 0; i < count; i += 1) {
    await post('/v1/task/imageannotation', taskBody(i));
    // A turn of the event loop now and then, for the finalizers (see settled).
    if (i % 1000 === 999) await new Promise((resolve) => setImmediate(resolve));
  }
  const after = await settled();
  line(
    `${count} tasks: heap growth / per task`,
    `${mb(after.heap - before.heap)} / ${per(after.heap - before.heap, count)}`,
  );
  line(
    '  RSS before / after / per task',
    `${mb(before.rss)} / ${mb(after.rss)} / ${per(after.rss - before.rss, count)}`,
  );
  keep(app);
}

const per = (bytes: number, count: number) => `${(bytes / count).toFixed(0)} bytes`;

/** Holds the apps until measured, so the GC cannot take what is being measured. */
const kept: unknown[] = [];
const keep = (...apps: MockApp[]) => kept.push(...apps);

async function main(): Promise<void> {
  if (!gc) console.log('(run with --expose-gc for settled figures: npx tsx --expose-gc scripts/bench-memory.ts)');
  if (values.tasks !== undefined) await storedTasks(Number(values.tasks));
  else {
    await idleTenants();
    await idempotencyRecords();
  }
  for (const app of kept as MockApp[]) app.dispose();
}

void main();
