/**
 * Regenerates fixtures/tasks/<type>.completed.json: each type's creation fixture sent through a
 * mock with a pinned clock and predictable ids, then completed with a synthesized response.
 * A test fails when the committed files differ from what this produces.
 *   tsx scripts/fixtures.ts
 */
import { writeFileSync } from 'node:fs';
import { TASK_TYPES } from '../src/domain/tasks/registry.js';
import { completedFixture } from './fixture-tasks.js';

for (const type of Object.keys(TASK_TYPES)) {
  const task = await completedFixture(type);
  writeFileSync(
    new URL(`../fixtures/tasks/${type}.completed.json`, import.meta.url),
    `${JSON.stringify(task, null, 2)}\n`,
  );
  console.log(`fixtures/tasks/${type}.completed.json`);
}
