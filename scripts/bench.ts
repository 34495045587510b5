/**
 * Measures what the performance rules promise, in process (no network noise):
 *  - createApp() cost;
 *  - a task-list page with 10 vs 100,000 tasks stored, unfiltered, filtered (equality, time ranges), by offset;
 *  - task creation throughput;
 *  - a file-list page and a training-attempt page with few vs many stored.
 *   npm run bench
 */
import { createApp } from '../src/app.js';

const AUTH = {
  authorization: `Basic ${Buffer.from('test_bench:').toString('base64')}`,
  'content-type': 'application/json',
};
const BODY = JSON.stringify({
  attachment: 'https://example.com/a.jpg',
  geometries: { box: { objects_to_annotate: ['car'] } },
  tags: ['t'],
});

function timeSync(label: string, runs: number, fn: () => void): number {
  fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < runs; i += 1) fn();
  const perRun = Number(process.hrtime.bigint() - start) / 1e6 / runs;
  console.log(`${label.padEnd(58)} ${perRun.toFixed(3)} ms`);
  return perRun;
}

async function timeAsync(label: string, runs: number, fn: () => unknown): Promise<number> {
  await fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < runs; i += 1) await fn();
  const perRun = Number(process.hrtime.bigint() - start) / 1e6 / runs;
  console.log(`${label.padEnd(58)} ${perRun.toFixed(3)} ms`);
  return perRun;
}

async function seeded(count: number) {
  const app = createApp();
  const tenant = app.services.store.tenant('bench', 'test');
  // Bulk-seed through the HTTP route for the first tasks, then through the service for speed.
  for (let i = 0; i < count; i += 1) {
    const res = await app.request('/v1/task/imageannotation', { method: 'POST', headers: AUTH, body: BODY });
    if (i === 0 && res.status !== 200) throw new Error(await res.text());
    if (i % 10 === 0) {
      const last = tenant.tasks.atSeq(tenant.tasks.size);
      if (last) await app.request(`/_mock/tasks/${last.task.task_id}/complete`, { method: 'POST', headers: AUTH });
    }
  }
  return app;
}

/** Files (imports: no bytes) and training attempts, `count` of each, seeded through HTTP. */
async function seededFilesAndAttempts(count: number) {
  const app = createApp();
  await app.request('/v1/projects', {
    method: 'POST',
    headers: AUTH,
    body: JSON.stringify({ type: 'imageannotation', name: 'p' }),
  });
  for (let i = 0; i < count; i += 1) {
    const body = JSON.stringify({
      file_url: `https://example.com/${i}.png`,
      project_name: 'p',
      metadata: { n: i % 7 },
    });
    await app.request('/v1/files/import', { method: 'POST', headers: AUTH, body });
  }
  for (let i = 0; i < count; i += 1000) {
    const attempts = Array.from({ length: Math.min(1000, count - i) }, (_, k) => ({
      quality_task_id: `q${(i + k) % 50}`,
      labeler_email: `l${(i + k) % 20}@example.com`,
    }));
    await app.request('/_mock/quality/attempts', { method: 'POST', headers: AUTH, body: JSON.stringify({ attempts }) });
  }
  return app;
}

async function benchFilesAndAttempts(): Promise<void> {
  for (const size of [10, 50_000]) {
    const app = await seededFilesAndAttempts(size);
    for (const query of ['projects=p&limit=100', 'projects=p&metadata=%7B%22n%22%3A3%7D&limit=100']) {
      await timeAsync(
        `GET /v1/files?${query.replace(/metadata=[^&]+/, 'metadata={n:3}')} with ${size} stored`,
        200,
        () => app.request(`/v1/files?${query}`, { headers: AUTH }),
      );
    }
    for (const query of [
      'labeler_emails=l3@example.com&limit=100',
      'quality_task_ids=q7,q8&labeler_emails=l8@example.com&limit=100',
    ]) {
      await timeAsync(`GET /v1/quality/labelers?${query} with ${size} stored`, 200, () =>
        app.request(`/v1/quality/labelers?${query}`, { headers: AUTH }),
      );
    }
  }
}

async function main(): Promise<void> {
  timeSync('createApp()', 200, () => createApp());
  for (const size of [10, 100_000]) {
    const start = Date.now();
    const app = await seeded(size);
    console.log(`seeded ${size} tasks in ${Date.now() - start} ms`);
    const recent = new Date(Date.now() - 500).toISOString();
    const queries = [
      'limit=100',
      'limit=10',
      'status=completed&limit=100',
      'status=pending&tags=t&limit=100',
      `updated_after=${recent}&limit=100`,
      'completed_after=2000-01-01&limit=100',
      'completed_before=2000-01-01&limit=100',
      `offset=${Math.floor(size / 2)}&limit=100`,
      `status=completed&offset=${Math.floor(size / 20)}&limit=100`,
    ];
    for (const query of queries) {
      await timeAsync(`GET /v1/tasks?${query} with ${size} stored`, 200, () =>
        app.request(`/v1/tasks?${query}`, { headers: AUTH }),
      );
    }
    // Combined filters count their total by a walk, cached until the next change: measure the uncached case.
    for (const query of [
      'status=pending&tags=t&limit=100',
      `updated_after=${recent}&limit=100`,
      'completed_before=2000-01-01&limit=100',
    ]) {
      await timeAsync(`create + GET ?${query} (uncached), ${size} stored`, 20, async () => {
        await app.request('/v1/task/imageannotation', { method: 'POST', headers: AUTH, body: BODY });
        await app.request(`/v1/tasks?${query}`, { headers: AUTH });
      });
    }
  }
  const app = createApp();
  await timeAsync('POST /v1/task/imageannotation', 2000, () =>
    app.request('/v1/task/imageannotation', { method: 'POST', headers: AUTH, body: BODY }),
  );
  await benchFilesAndAttempts();
}

void main();
