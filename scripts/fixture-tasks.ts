import { existsSync } from 'node:fs';
import { createApp, type MockApp } from '../src/app.js';
import { fixture } from '../src/fixtures.js';
import { ManualClock } from '../src/runtime/clock.js';
import { sequentialIds } from '../src/runtime/ids.js';

const AUTH = {
  authorization: `Basic ${Buffer.from('test_fixtures:').toString('base64')}`,
  'content-type': 'application/json',
};

/**
 * A request a creation fixture depends on, listed in fixtures/tasks/<type>.setup.json and sent first
 * (lidartopdown needs its project and batch; lidarlinking's lidar_task a completed lidar task).
 * The body is `body`, or the file `fixture` names; `complete` also completes the created task.
 */
interface SetupStep {
  path: string;
  body?: unknown;
  fixture?: string;
  complete?: boolean;
}

async function post(app: MockApp, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await app.request(path, {
    method: 'POST',
    headers: AUTH,
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  if (res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** Creates a task (or other resource) and, if asked, completes it after 95 minutes of the pinned clock. */
async function run(app: MockApp, clock: ManualClock, step: SetupStep): Promise<unknown> {
  const created = await post(app, step.path, step.fixture ? fixture(step.fixture) : step.body);
  if (!step.complete) return created;
  clock.advance(95 * 60 * 1000);
  return post(app, `/_mock/tasks/${String(created.task_id)}/complete`);
}

function setupSteps(type: string): SetupStep[] {
  const name = `tasks/${type}.setup.json`;
  return existsSync(new URL(`../fixtures/${name}`, import.meta.url)) ? fixture<SetupStep[]>(name) : [];
}

/** The completed task a type's creation fixture yields, with a pinned clock and ids: stable across runs. */
export async function completedFixture(type: string): Promise<unknown> {
  const clock = new ManualClock(Date.parse('2026-01-01T12:00:00.000Z'));
  const app = createApp({ clock, ids: sequentialIds('5c84d0fe9585930000') });
  // A fixed callback key: a results file's URL is signed with it.
  await app.request('/_mock/settings', {
    method: 'PATCH',
    headers: AUTH,
    body: JSON.stringify({ callback_auth_key: 'fixtures-callback-key' }),
  });
  for (const step of setupSteps(type)) await run(app, clock, step);
  return run(app, clock, { path: `/v1/task/${type}`, fixture: `tasks/${type}.create.json`, complete: true });
}
