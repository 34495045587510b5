import { createApp } from './app.js';
import { fixture } from './fixtures.js';
import { ManualClock } from './runtime/clock.js';
import { sequentialIds } from './runtime/ids.js';

const AUTH = { authorization: `Basic ${Buffer.from('test_fixtures:').toString('base64')}`, 'content-type': 'application/json' };

/** The completed task a type's creation fixture yields, with a pinned clock and ids: stable across runs. */
export async function completedFixture(type: string): Promise<unknown> {
  const clock = new ManualClock(Date.parse('2026-01-01T12:00:00.000Z'));
  const app = createApp({ clock, ids: sequentialIds('5c84d0fe9585930000') });
  const created = await app.request(`/v1/task/${type}`, { method: 'POST', headers: AUTH, body: JSON.stringify(fixture(`tasks/${type}.create.json`)) });
  const { task_id } = (await created.json()) as { task_id: string };
  clock.advance(95 * 60 * 1000);
  const completed = await app.request(`/_mock/tasks/${task_id}/complete`, { method: 'POST', headers: AUTH });
  if (completed.status !== 200) throw new Error(`${type}: ${await completed.text()}`);
  return completed.json();
}
