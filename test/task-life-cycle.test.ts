import { describe, expect, it } from 'vitest';
import { TASK_MOVES, type TaskMove, taskMoveAllowed } from '../src/domain/tasks/life-cycle.js';
import type { TaskStatus } from '../src/domain/tasks/task.js';
import { createImageTask, makeApp, type TestApp } from './helpers.js';

/**
 * The task life cycle's table (domain/tasks/life-cycle.ts) against every route that moves a task: each move tried
 * on a task in each status answers as the table says, a 200 where it allows the move and otherwise the 400 that
 * states its rule. A route with a guard of its own that disagrees with the table fails here.
 */

const STATUSES: readonly TaskStatus[] = ['pending', 'completed', 'canceled', 'error'];

/** Each move as a client makes it: its route and body. */
const ROUTES: Record<TaskMove, { path: (id: string) => string; body: unknown }[]> = {
  complete: [{ path: (id) => `/_mock/tasks/${id}/complete`, body: {} }],
  fail: [{ path: (id) => `/_mock/tasks/${id}/fail`, body: {} }],
  start: [{ path: (id) => `/_mock/tasks/${id}/start`, body: {} }],
  cancel: [{ path: (id) => `/v1/task/${id}/cancel`, body: undefined }],
  redo: [{ path: (id) => `/_mock/tasks/${id}/redo`, body: {} }],
  audit: [
    { path: (id) => `/v1/task/${id}/audit`, body: { accepted: true } },
    { path: (id) => `/_mock/tasks/${id}/audit`, body: { result: 'accepted' } },
  ],
};

/** A fresh task brought to `status` by the moves that lead there. */
async function taskIn(t: TestApp, status: TaskStatus): Promise<string> {
  const { task_id: id } = await createImageTask(t);
  const lead: Record<TaskStatus, string | undefined> = {
    pending: undefined,
    completed: `/_mock/tasks/${id}/complete`,
    canceled: `/v1/task/${id}/cancel`,
    error: `/_mock/tasks/${id}/fail`,
  };
  const path = lead[status];
  if (path) expect((await t.call('POST', path, { body: {} })).status).toBe(200);
  return id;
}

describe('the task life cycle', () => {
  for (const move of Object.keys(TASK_MOVES) as TaskMove[]) {
    for (const status of STATUSES) {
      const allowed = taskMoveAllowed(move, status);
      const answer = allowed ? `200, then ${TASK_MOVES[move].to}` : '400 stating the rule';
      it(`${move} on a ${status} task: ${answer}`, async () => {
        const t = makeApp();
        for (const route of ROUTES[move]) {
          const id = await taskIn(t, status);
          const res = await t.call('POST', route.path(id), { body: route.body });
          if (allowed) {
            expect(res.status, route.path(id)).toBe(200);
            expect(res.body.status).toBe(TASK_MOVES[move].to);
          } else {
            expect(res.status, route.path(id)).toBe(400);
            const { from, done } = TASK_MOVES[move];
            expect(res.body.error).toContain(`is ${status}; only ${from.join(' or ')} tasks can be ${done}`);
          }
        }
        t.app.dispose();
      });
    }
  }
});
