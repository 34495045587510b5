/**
 * What an answer is, by the route a request names: the body the documents declare for its success. The three
 * documents' types are openapi-typescript's output (documents/, written by scripts/contract-types.ts and checked
 * against the committed documents by `npm run openapi:check`); here a method and a path find their route, so
 * `client.get(`/v1/task/${id}`)` answers a `Task` and a contract reads what the document promises, or fails to
 * compile when a document stops promising it. A path no route has, or one known only at run time, answers
 * `unknown`: read it through the narrowing helpers of expect.ts.
 */
import type { paths as ControlPaths } from './documents/control.js';
import type { components as V1Components, paths as V1Paths } from './documents/v1.js';
import type { paths as V2Paths } from './documents/v2.js';

type Paths = V1Paths & V2Paths & ControlPaths;
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A path's segments: `/v1/task/${string}` is ['', 'v1', 'task', `${string}`]. */
type Split<S extends string> = S extends `${infer Head}/${infer Rest}` ? [Head, ...Split<Rest>] : [S];
type Bare<P extends string> = P extends `${infer Path}?${string}` ? Path : P;

/** Each segment of the path is the template's (a `{name}` segment takes any). */
type SegmentsMatch<Actual extends readonly string[], Template extends readonly string[]> = Actual extends [
  infer A extends string,
  ...infer ARest extends string[],
]
  ? Template extends [infer T extends string, ...infer TRest extends string[]]
    ? T extends `{${string}}`
      ? SegmentsMatch<ARest, TRest>
      : A extends T
        ? SegmentsMatch<ARest, TRest>
        : false
    : false
  : Template extends []
    ? true
    : false;

/** The routes with an operation for `M`: openapi-typescript writes `post?: never` where there is none. */
type RoutesOf<M extends Method> = {
  [K in keyof Paths & string]: Paths[K] extends { [V in M]: object } ? K : never;
}[keyof Paths & string];

/** The route `P` is a path of: itself when it is one (`/v1/task/imageannotation`), else the templates it fills. */
type TemplateOf<M extends Method, P extends string> =
  Bare<P> extends RoutesOf<M>
    ? Bare<P>
    : { [K in RoutesOf<M>]: SegmentsMatch<Split<Bare<P>>, Split<K>> extends true ? K : never }[RoutesOf<M>];

/** An operation's JSON answer for 200, 201 or 202. */
type SuccessOf<Operation> = Operation extends { responses: infer R }
  ? {
      [S in keyof R]: S extends 200 | 201 | 202
        ? R[S] extends { content: { 'application/json': infer B } }
          ? B
          : never
        : never;
    }[keyof R]
  : unknown;

/** The body the documents declare for a success of `method path`; unknown where no document has the route. */
export type AnswerOf<M extends Method, P extends string> = P extends unknown // each of a union of paths
  ? string extends P
    ? unknown // a path only known at run time
    : AnswerAt<M, TemplateOf<M, P>>
  : never;

type AnswerAt<M extends Method, Route> = [Route] extends [never]
  ? unknown
  : IsUnion<Route> extends true
    ? unknown // a path that fills several routes' templates: no one answer to type it by
    : Route extends keyof Paths
      ? M extends keyof Paths[Route]
        ? SuccessOf<Paths[Route][M]>
        : unknown
      : unknown;

type IsUnion<T, All = T> = T extends unknown ? ([All] extends [T] ? false : true) : never;

type V1 = V1Components['schemas'];

/** `{"status_code", "error"}`: every error answer, on every route. */
export type ErrorBody = V1['ErrorResponse'];
/** A task as GET /v1/task/{id} answers it: one member per task type, told apart by `type`. */
export type Task = V1['Task'];
/** The task of one type, its params and response typed as that type's; any task for a type only known at run time. */
export type TaskOfType<Type extends string> = Type extends Task['type'] ? Extract<Task, { type: Type }> : Task;
/** A completed task of one type: its response is there. */
export type CompletedTask<Type extends string> = TaskOfType<Type> & {
  response: NonNullable<TaskOfType<Type>['response']>;
};
export type TaskList = V1['TaskList'];
/** The fields every task carries, whatever its type (the interface's Task table). */
export type TaskCommon = V1['TaskCommon'];
