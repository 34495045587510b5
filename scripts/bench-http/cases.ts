/**
 * What `npm run bench:http` drives: a labelmock server seeded with a large and a small tenant, some of
 * their tasks completed, and pending tasks with a callback; then one case per hot path (GET a task, list
 * pages with each filter family, creates, a completion with a callback, and v2's reads beside v1's). Seeding
 * two servers alike gives two lists of cases with the same names, which is how `--against` compares builds.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { imageBody } from '../bench-bodies.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const COMPLETED_PER_TENANT = 300;

export interface Sizes {
  /** Tasks in the large and the small tenant. */
  large: number;
  small: number;
  /** Connections the seeding uses. */
  connections: number;
}

export const headers = (key: string) => ({
  authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
  'content-type': 'application/json',
});

const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

export async function call(url: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: headers(key),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return text;
}

/** `count` tasks in the tenant of `key` (a project and a batch first), with autocannon for speed. */
async function seed(
  url: string,
  key: string,
  count: number,
  connections: number,
  extra: Record<string, unknown> = {},
): Promise<string[]> {
  await call(url, key, 'POST', '/v1/projects', { type: 'imageannotation', name: 'p' });
  await call(url, key, 'POST', '/v1/batches', { project: 'p', name: 'b' });
  let n = 0;
  return createMany(url, key, '/v1/task/imageannotation', count, connections, () =>
    JSON.stringify(imageBody(n++, extra)),
  );
}

/** `count` creations POSTed to `path` with autocannon, each body from `bodyOf`: the created tasks' ids. */
async function createMany(
  url: string,
  key: string,
  path: string,
  count: number,
  connections: number,
  bodyOf: () => string,
): Promise<string[]> {
  const ids: string[] = [];
  const result = await autocannon({
    url: `${url}${path}`,
    connections,
    amount: count,
    method: 'POST',
    headers: headers(key),
    requests: [
      {
        setupRequest: (req) => ({ ...req, body: bodyOf() }),
        onResponse: (_status, body) => {
          ids.push(JSON.parse(body).task_id);
        },
      },
    ],
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`seeding ${key}: ${result.non2xx} non-2xx`);
  return ids;
}

const CHAT_TASKS = 2_000;
const CHAT_COMPLETED = 500;

/**
 * The v2 reads beside their v1 counterparts, on one tenant of chat tasks (completed ones carry synthesized
 * threads): a completed task, a page of 100 of the project's tasks, and a delivery's page of 100 tasks.
 */
async function v2Cases(url: string, connections: number): Promise<Case[]> {
  const key = 'test_v2';
  await call(url, key, 'POST', '/v1/projects', { type: 'chat', name: 'chat' });
  const chatBody = JSON.parse(readFileSync(`${ROOT}fixtures/tasks/chat.create.json`, 'utf8'));
  delete chatBody.callback_url;
  const body = JSON.stringify({ ...chatBody, project: 'chat' });
  const ids = await createMany(url, key, '/v1/task/chat', CHAT_TASKS, connections, () => body);
  for (const id of ids.slice(0, CHAT_COMPLETED)) await call(url, key, 'POST', `/_mock/tasks/${id}/complete`);
  const delivery = JSON.parse(await call(url, key, 'POST', '/_mock/v2/deliveries', { name: 'd', project: 'chat' }));
  const task = ids[Math.floor(CHAT_COMPLETED / 2)];
  const read = (name: string, path: string): Case => ({ name, method: 'GET', key, path: () => path });
  return [
    read('v1 GET completed chat task', `/v1/task/${task}`),
    read('v2 GET completed chat task', `/v2/task?task_id=${task}`),
    read('v1 list chat project page', '/v1/tasks?project=chat&limit=100'),
    read('v2 list chat project page', '/v2/tasks?project_name=chat&limit=100'),
    read('v2 delivery page', `/v2/delivery?delivery_id=${delivery.id}&limit=100`),
    read('v2 delivery tasks page', `/v2/delivery/tasks?delivery_id=${delivery.id}&limit=100`),
  ];
}

export interface Case {
  name: string;
  method: 'GET' | 'POST';
  key: string;
  /** The path of each request (a completion takes a new task each time). */
  path: () => string;
  body?: string;
}

/**
 * Seeds the server at `url` (its process `pid`, for its RSS; `label` names it in that line) and answers
 * its cases; a completion's callback goes to `receiverUrl`.
 */
export async function seededCases(url: string, receiverUrl: string, sizes: Sizes, pid: number, label: string) {
  const since = new Date().toISOString();
  const rssBefore = rssOf(pid);
  const largeIds = await seed(url, 'test_large', sizes.large, sizes.connections);
  const rssAfter = rssOf(pid);
  const smallIds = await seed(url, 'test_small', sizes.small, sizes.connections);
  // Some completed tasks in each store, for the completed_at range.
  for (const [key, ids] of [
    ['test_large', largeIds],
    ['test_small', smallIds],
  ] as const) {
    for (const id of ids.slice(0, COMPLETED_PER_TENANT)) await call(url, key, 'POST', `/_mock/tasks/${id}/complete`);
  }
  const perTask = (rssAfter - rssBefore) / sizes.large;
  console.log(
    `${label} RSS: ${(rssBefore / 2 ** 20).toFixed(0)} MB before seeding, ` +
      `${(rssAfter / 2 ** 20).toFixed(0)} MB with ${sizes.large} tasks ` +
      `(${perTask.toFixed(0)} bytes per task)`,
  );

  const filters: [string, string][] = [
    ['unfiltered', ''],
    ['status', '&status=pending'],
    ['type', '&type=imageannotation'],
    ['project', '&project=p'],
    ['batch', '&batch=b'],
    ['review status', '&customer_review_status=pending'],
    ['tags', '&tags=t'],
    ['unique_id', '&unique_id=u7'],
    ['created range', `&start_time=${since}&end_time=2999-01-01T00:00:00.000Z`],
    ['updated range', `&updated_after=${since}`],
    ['completed range', `&completed_after=${since}`],
  ];
  const cases: Case[] = [
    {
      name: 'GET task',
      method: 'GET',
      key: 'test_large',
      path: () => `/v1/task/${largeIds[Math.floor(largeIds.length / 2)]}`,
    },
  ];
  for (const [store, key] of [
    [`${sizes.small}`, 'test_small'],
    [`${sizes.large}`, 'test_large'],
  ] as const) {
    for (const [label, query] of filters) {
      const path = `/v1/tasks?limit=100${query}`;
      cases.push({ name: `list ${label} (${store})`, method: 'GET', key, path: () => path });
    }
  }
  const textBody = JSON.parse(readFileSync(`${ROOT}fixtures/tasks/textcollection.create.json`, 'utf8'));
  delete textBody.callback_url;
  cases.push(
    {
      name: 'create imageannotation',
      method: 'POST',
      key: 'test_create',
      path: () => '/v1/task/imageannotation',
      body: JSON.stringify({ ...imageBody(0), project: undefined, batch: undefined, unique_id: undefined }),
    },
    {
      name: 'create textcollection',
      method: 'POST',
      key: 'test_create',
      path: () => '/v1/task/textcollection',
      body: JSON.stringify(textBody),
    },
  );
  // Completions use each task once: enough pending tasks with a callback for every round.
  const callbackIds = await seed(url, 'test_callbacks', 25_000, sizes.connections, {
    callback_url: `${receiverUrl}/cb`,
    unique_id: undefined,
  });
  cases.push(...(await v2Cases(url, sizes.connections)));
  let nextCallback = 0;
  cases.push({
    name: 'complete with callback',
    method: 'POST',
    key: 'test_callbacks',
    path: () => `/_mock/tasks/${callbackIds[nextCallback++ % callbackIds.length]}/complete`,
  });
  return cases;
}
