import { describe, expectTypeOf, it } from 'vitest';
import type { AnswerOf, ErrorBody, Task, TaskList, TaskOfType } from '../contracts/kit/answers.js';
import { expectErrorBody } from '../contracts/kit/expect.js';
import type { HttpResult } from '../contracts/kit/target.js';
import { Client } from '../contracts/kit/target.js';

/**
 * How the contract kit types an answer: by the route a path is of, as the documents declare its success
 * (contracts/kit/answers.ts). `npm run typecheck` (part of `npm test`) fails when one of these promises breaks.
 */

declare const taskId: string;
const client = new Client({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'test_types', fetch }, 'test_types');

describe('AnswerOf', () => {
  it('types a filled template by its route: GET /v1/task/{taskId} answers a task', () => {
    expectTypeOf<AnswerOf<'get', `/v1/task/${string}`>>().toEqualTypeOf<Task>();
  });

  it('prefers the route a path is over the templates it fills: POST /v1/task/imageannotation', () => {
    expectTypeOf<AnswerOf<'post', '/v1/task/imageannotation'>>().toHaveProperty('task_id');
    expectTypeOf<AnswerOf<'post', '/v1/task/imageannotation'>['type']>().toEqualTypeOf<'imageannotation'>();
  });

  it('drops the query: GET /v1/tasks?status=completed answers a task list', () => {
    expectTypeOf<AnswerOf<'get', '/v1/tasks?status=completed'>>().toEqualTypeOf<TaskList>();
  });

  it('reads v2 and the control plane too', () => {
    expectTypeOf<AnswerOf<'get', '/v2/task?task_id=x'>>().toHaveProperty('threads');
    expectTypeOf<AnswerOf<'get', '/_mock/clock'>>().toHaveProperty('now');
  });

  it('answers unknown for a path no route has, a method its route lacks, and a path known only at run time', () => {
    expectTypeOf<AnswerOf<'get', '/v1/nowhere'>>().toBeUnknown();
    expectTypeOf<AnswerOf<'delete', '/v1/tasks'>>().toBeUnknown();
    expectTypeOf<AnswerOf<'get', string>>().toBeUnknown();
  });

  it('answers each path of a union of paths', () => {
    expectTypeOf<AnswerOf<'get', '/v1/tasks' | '/_mock/clock'>>().toEqualTypeOf<
      TaskList | AnswerOf<'get', '/_mock/clock'>
    >();
  });
});

describe('Client', () => {
  it("types an answer's body by the path the call names", () => {
    expectTypeOf(client.get(`/v1/task/${taskId}`)).resolves.toEqualTypeOf<HttpResult<Task>>();
    const path: string = '/v1/tasks';
    expectTypeOf(client.get(path)).resolves.toEqualTypeOf<HttpResult<unknown>>();
  });

  it('reads an error body once expectErrorBody has checked it', async () => {
    const res = await client.get(`/v1/task/${taskId}`);
    expectErrorBody(res, 404);
    expectTypeOf(res.body).toMatchTypeOf<ErrorBody>();
  });
});

describe('TaskOfType', () => {
  it("types a task's response by its type, and any task for a type known only at run time", () => {
    expectTypeOf<NonNullable<TaskOfType<'lidarannotation'>['response']>['annotations']>().toEqualTypeOf<{
      url: string;
    }>();
    expectTypeOf<TaskOfType<string>>().toEqualTypeOf<Task>();
  });
});
