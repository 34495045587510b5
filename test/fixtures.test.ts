import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { completedFixture } from '../scripts/fixture-tasks.js';
import { TASK_TYPES } from '../src/domain/tasks/registry.js';
import { deliveredResponseSchema } from '../src/domain/tasks/result-file.js';
import { TaskSchema } from '../src/domain/tasks/task.js';
import { fixture } from '../src/fixtures.js';

describe('fixtures', () => {
  for (const [type, def] of Object.entries(TASK_TYPES)) {
    it(`fixtures/tasks/${type}.create.json is a valid creation request`, () => {
      const parsed = def.createSchema.safeParse(fixture(`tasks/${type}.create.json`));
      expect(parsed.success, parsed.success ? '' : parsed.error.message).toBe(true);
    });

    it(`fixtures/tasks/${type}.completed.json is what the mock produces (run tsx scripts/fixtures.ts)`, async () => {
      const committed = JSON.parse(
        readFileSync(new URL(`../fixtures/tasks/${type}.completed.json`, import.meta.url), 'utf8'),
      );
      expect(committed).toEqual(await completedFixture(type));
      expect(TaskSchema.safeParse(committed).success).toBe(true);
      expect(deliveredResponseSchema(def).safeParse(committed.response).success).toBe(true);
    });
  }
});
