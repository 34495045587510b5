import { citationOf, isRecordedCitation } from './citations.js';

/**
 * Which contracts check the interface, which the official clients' surface beyond it, and which
 * labelmock's own choices.
 *
 * - `interface`: required by service-interface.md or real-service-notes.md; any implementation must pass.
 * - `recorded`: what the real service was recorded or otherwise seen doing beyond those documents (its clients'
 *   cassettes, the 2018 docs, Scale's own scripts and libraries), each cited; an implementation of the
 *   documented interface leaves these out, one that must behave as the real service does opts in.
 * - `client`: what the official clients call beyond the interface (the v2 API of the Python client's
 *   `client.v2`); an implementation that serves it opts in with `--tags client`.
 * - `labelmock`: labelmock's choices where the interface is silent (400 rather than clamping, 405 with
 *   Allow, naming ignored unknown keys, error wording, leniencies) and the behaviour of its /_mock routes.
 * - `control`: needs /_mock routes (derived from the contract's source: see `needsOf`).
 *
 * The first pattern that matches a contract's name decides between interface and labelmock; a name
 * no pattern matches is an error at registration, so every new contract is classified on purpose.
 * Inside an interface contract, a rule that is labelmock's choice (that a 400 names the field) is
 * checked only when `labelmock` is selected too (`labelmockChoice` in expect.ts).
 */
export type Tag = 'interface' | 'recorded' | 'client' | 'labelmock' | 'control';
export const TAGS: readonly Tag[] = ['interface', 'recorded', 'client', 'labelmock', 'control'];

/** The kind every contract has exactly one of (`control` comes on top, from what it needs). */
export type Kind = Exclude<Tag, 'control'>;

/**
 * The official clients' surface beyond the interface: the v2 API, the task types the clients name
 * that neither the interface nor the real-service record describes, quality tasks and templates.
 */
const CLIENT: readonly RegExp[] = [
  /\/v2\//,
  /^POST \/v1\/task\/(documentmodel|videoboxannotation|videocuboidannotation|sensorfusion|chat\w*|multi\w+) /,
  /\/v1\/(evaluation|training)_tasks\/|\/taskTemplates/,
];

/** Interface rules observed through a /_mock route whose name would otherwise read as labelmock's. */
const INTERFACE_FIRST: readonly RegExp[] = [
  /sends \{task_id, status, response, task\} to callback_url/,
  /^a callback answered 500 is retried until a 2xx/,
];

const LABELMOCK: readonly RegExp[] = [
  // Leniencies and open-mode key conventions.
  /documented leniency|\(open mode\)|with the account's live key/,
  // 400 rather than clamp or ignore; 405; unknown keys; forged tokens; content types; unknown routes.
  /unknown top-level parameter|text\/plain body|body over 5 MB|GET \/v1\/<unknown route>|answer 405/,
  /limit 0 or 101|next_token the server never issued|repeated tags keys|setMetadata with a JSON array/,
  /in another key order and formatting/,
  /answers labelmock extras/,
  /unknown project_version answers 400/,
  /with an invalid filter value answers 400/,
  // Error statuses and wording the interface leaves open.
  /audit on a pending task|dependents\/options on a finished root|invalid def answers 400 naming defs|force_creation/,
  /a dependent whose definition names its own attachment|require_audit|a reviewer fix releases/,
  /invite of a labeler needs a Studio project/,
  /set_role refuses|set_role of an invitee|assignments\/add refuses|labeler groups: a used name/,
  /set_priorities without every pending batch|an e-mail standing for one member/,
  /refuses an expected_response|GET \/v1\/files requires projects|GET \/v1\/files filters/,
  /metadata that is not a JSON object/,
  // The interface requires geometries; that it must name a geometry is labelmock's reading.
  /with geometries naming no geometry/,
  // The interface does not say what a condition naming no field of the task is: a 400 is labelmock's choice.
  /textcollection with a condition naming no field/,
  /a completed batch takes a new task/,
  // Files and teams of one key's tenant (account and mode): the notes leave this open.
  /\(tenant's files\)|\(tenant's team\)/,
  // Callback journal, schedule and settings, batch callback body.
  /retried on the virtual clock|failed after max_attempts|journaled|batch with a callback receives/,
  /holds the callback open|redo and a second completion/,
  // Synthesized and checked responses of /_mock/tasks/{id}/complete and /audit.
  /^a completed \w+ task|^POST \/_mock\/tasks\/\{id\}\/(complete|audit|redo)|^GET \/_mock|^PATCH \/_mock|^PUT \/_mock/,
  /^POST \/_mock\/(reset|clock)|^GET \/_mock\/callbacks|GET \/_mock\/clock without Authorization/,
  /pages recorded attempts/,
  // The request journal and the event stream.
  /^DELETE \/_mock\/requests/,
  // Fault rules and the Labelmock-Fault header.
  /\/_mock\/faults|Labelmock-Fault/,
  // Documents labelmock publishes.
  /^GET \/openapi\.(json|yaml)/,
];

/**
 * A contract is `interface` when its name matches a citation (contracts/kit/citations.ts) and no LABELMOCK pattern,
 * `recorded` when that citation is of recorded or otherwise seen behaviour.
 */
export function classify(name: string): Kind {
  if (CLIENT.some((pattern) => pattern.test(name))) return 'client';
  if (INTERFACE_FIRST.some((pattern) => pattern.test(name))) return 'interface';
  if (LABELMOCK.some((pattern) => pattern.test(name))) return 'labelmock';
  const cites = citationOf(name);
  if (cites) return isRecordedCitation(cites) ? 'recorded' : 'interface';
  throw new Error(
    `Contract "${name}" matches no pattern: cite its section in contracts/kit/citations.ts, ` +
      'or tag it labelmock in contracts/kit/tags.ts',
  );
}

/**
 * Helpers that always call a /_mock route, and the route. Helpers that only use the control plane
 * when the target has one (holdTasksPending, createPendingTask, createCompletedTask) are left out:
 * their contracts also run without it.
 */
const HELPER_ROUTES: Record<string, string> = {
  needControlPlane: 'GET /_mock/openapi.json',
  pendingOf: 'PATCH /_mock/settings',
  completedOf: 'POST /_mock/tasks/{id}/complete',
  useCompletion: 'PATCH /_mock/settings',
  useCallbackSettings: 'PATCH /_mock/settings',
  callbackJournal: 'GET /_mock/callbacks',
  journalEventually: 'GET /_mock/callbacks',
  advanceClock: 'POST /_mock/clock/advance',
  readClockMs: 'GET /_mock/clock',
  joinedTeammates: 'POST /_mock/teams/accept',
  studioWithLabelers: 'POST /_mock/teams/accept',
  // Helpers of single suite files.
  completedTask: 'POST /_mock/tasks/{id}/complete',
  completeTask: 'POST /_mock/tasks/{id}/complete',
  complete: 'POST /_mock/tasks/{id}/complete',
  completed: 'POST /_mock/tasks/{id}/complete',
  completedLidarTask: 'POST /_mock/tasks/{id}/complete',
  prepare: 'GET /_mock/openapi.json',
  pendingTask: 'GET /_mock/openapi.json',
  rootWithOptions: 'GET /_mock/openapi.json',
  studioBatches: 'POST /_mock/teams/accept',
  journaledRequests: 'GET /_mock/requests',
  latestRequestId: 'GET /_mock/requests',
  expectRequestReceived: 'GET /_mock/requests',
  openEventStream: 'GET /_mock/events',
  withFaultRule: 'POST /_mock/faults',
};

/** The /_mock routes a contract needs, read from its source (helper names and literal paths). */
export function needsOf(source: string): string[] {
  const needs = new Set<string>();
  // `helper(` in plain JS; `(0, module.helper)(` after a bundler's or vitest's transform.
  for (const [helper, route] of Object.entries(HELPER_ROUTES))
    if (new RegExp(`\\b${helper}\\)?\\s*\\(`).test(source)) needs.add(route);
  for (const match of source.matchAll(/\.(get|post|put|patch|delete)\(\s*[`'"](\/_mock\/[^`'"?]*)/g)) {
    const [, method = '', literal = ''] = match; // both groups are required by the pattern
    const path = literal.replace(/\$\{[^}]*\}/g, '{id}').replace(/\/+$/, '');
    needs.add(`${method.toUpperCase()} ${path}`);
  }
  return [...needs].sort();
}
