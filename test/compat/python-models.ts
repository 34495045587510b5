import { z } from 'zod';
import type { TestApp } from '../helpers.js';
import { basic } from '../helpers.js';

/**
 * The official Python client (`scaleapi` 2.18.4) as far as the wire goes: how it builds a request
 * (scaleapi/api.py on top of `requests`) and what its model classes read from an answer. The
 * compat tests send exactly these requests in process and parse the answers with these schemas, so
 * a field the client reads with `json["x"]` that the mock leaves out fails here instead of with a
 * KeyError in a user's program.
 */

export const PY_USER_AGENT = 'scaleapi/2.18.4 Python/3.11.7 OS/Linux-6.1.0-x86_64-with-glibc2.36 pytest';

/** `urllib.parse.quote(text, safe="")`: only A-Z a-z 0-9 _ . - ~ stay; `/`, space, `|`, `!'()*` are escaped. */
export function pyQuote(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `quote_plus`, as `urlencode` applies it to query keys and values: like pyQuote, space as `+`. */
const pyQuotePlus = (text: string) => pyQuote(text).replace(/%20/g, '+');

type PyScalar = string | number | boolean | null | undefined;
export type PyParams = Record<string, PyScalar | PyScalar[]>;

/** `str(value)` for what the client puts in a query: Python booleans are `True` / `False`. */
const pyStr = (v: string | number | boolean) => (typeof v === 'boolean' ? (v ? 'True' : 'False') : String(v));

/**
 * `requests` query encoding: None values are dropped, a list becomes repeated keys, and the result is
 * appended with `&` when the endpoint already carries a query (cancel_task's `?clear_unique_id=true`).
 */
export function pyQuery(params: PyParams = {}): string {
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v === null || v === undefined) continue;
      pairs.push(`${pyQuotePlus(key)}=${pyQuotePlus(pyStr(v))}`);
    }
  }
  return pairs.join('&');
}

/** `json.dumps(body)` with its defaults: `", "` and `": "` separators, non-ASCII as \uXXXX. */
export function pyJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(pyJson).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${pyJson(k)}: ${pyJson(v)}`)
      .join(', ')}}`;
  }
  if (typeof value === 'string')
    return JSON.stringify(value).replace(
      /[\u0080-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  return JSON.stringify(value);
}

export interface PyRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The client's endpoint, relative to the base URL (`task/abc/cancel`, `batches/a%20b`). */
  endpoint: string;
  params?: PyParams;
  /** The client's `body`; `body or None` means an empty dict or list is sent as no body at all. */
  body?: unknown;
}

/**
 * Sends what Api._api_request sends: `{base}/{endpoint}` (base `/v1`), HTTP Basic with the key and
 * an empty password, `Content-Type: application/json` on every non-multipart call (GETs and
 * body-less POSTs included), the client's User-Agent and the `requests` default headers.
 */
export async function pyCall(t: TestApp, key: string, req: PyRequest) {
  const query = pyQuery(req.params);
  const sep = req.endpoint.includes('?') ? '&' : '?';
  const url = `/v1/${req.endpoint}${query ? sep + query : ''}`;
  const empty =
    req.body === undefined ||
    req.body === null ||
    (Array.isArray(req.body)
      ? req.body.length === 0
      : typeof req.body === 'object' && Object.keys(req.body as object).length === 0);
  const headers: Record<string, string> = {
    'user-agent': PY_USER_AGENT,
    'accept-encoding': 'gzip, deflate',
    accept: '*/*',
    connection: 'keep-alive',
    'content-type': 'application/json',
    authorization: basic(key),
  };
  if (empty && req.method !== 'GET') headers['content-length'] = '0';
  const res = await t.app.request(url, { method: req.method, headers, ...(!empty && { body: pyJson(req.body) }) });
  const text = await res.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: the client returns None for a 200 without JSON, and raises with the text otherwise
  }
  return { status: res.status, body };
}

// ---- model classes: every key read with json["..."] is required, .get() keys are optional ----

const jsonObject = z.record(z.unknown());

/** tasks.py Task: only `task_id` is read eagerly; the rest through __getattr__ (AttributeError if absent). */
export const PyTask = z.object({ task_id: z.string() }).passthrough();
/** Attributes the client's own tests read from a full task. */
export const PyTaskFull = PyTask.extend({
  status: z.string(),
  type: z.string(),
  params: jsonObject,
  metadata: jsonObject,
  created_at: z.string(),
  callback_url: z.string().optional(),
});

/** ScaleClient.tasks(): Tasklist(docs, total, limit, offset, has_more, next_token=.get). */
export const PyTaskList = z.object({
  docs: z.array(PyTask),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  has_more: z.boolean(),
  next_token: z.string().nullable().optional(),
});

/** batches.py Batch. */
export const PyBatch = z
  .object({ name: z.string(), status: z.string(), project: z.string(), created_at: z.string(), metadata: jsonObject })
  .passthrough();
/** ScaleClient.batches(): Batchlist(docs, totalDocs, limit, offset, has_more); `total` is not read. */
export const PyBatchList = z.object({
  docs: z.array(PyBatch),
  totalDocs: z.number().int(),
  limit: z.number().int().positive(),
  offset: z.number().int(),
  has_more: z.boolean(),
});
/** Batch.get_status(): res["status"] and res.get(stat, 0) for the four counts. */
export const PyBatchStatus = z.object({
  status: z.string(),
  pending: z.number().int().optional(),
  completed: z.number().int().optional(),
  error: z.number().int().optional(),
  canceled: z.number().int().optional(),
});

/** projects.py Project: len(param_history); the last entry's "version", and "instruction" if present. */
export const PyProject = z
  .object({
    name: z.string(),
    type: z.string(),
    param_history: z.array(z.object({ version: z.number().int(), instruction: z.string().optional() }).passthrough()),
  })
  .passthrough();
/** projects.py TaskTemplate; `project` was read by earlier 2.x versions, so it is required here too. */
export const PyTaskTemplate = z.object({
  id: z.string(),
  project: z.string(),
  version: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  template_variables: jsonObject,
});

/** files.py File. */
export const PyFile = z.object({ id: z.string(), attachment_url: z.string() }).passthrough();
/** quality_tasks.py QualityTask (TrainingTask) and evaluation_tasks.py EvaluationTask. */
export const PyQualityTask = z
  .object({ id: z.string(), expected_response: z.unknown().refine((v) => v !== undefined, 'required') })
  .passthrough();

/** teams.py Teammate: email and role read, the rest with .get(). */
export const PyTeammate = z.object({
  email: z.string(),
  role: z.string(),
  company: z.string().nullable().optional(),
  firstName: z.string().nullable().optional(),
  lastName: z.string().nullable().optional(),
  isStudioLabeler: z.boolean().nullable().optional(),
  expiry: z.union([z.string(), z.number()]).nullable().optional(),
});

/** studio.py: StudioLabelerAssignment wraps each value of {email: [projects]}. */
export const PyAssignments = z.record(z.array(z.string()));
/** studio.py StudioProjectGroup, with StudioWorker for each worker. */
export const PyProjectGroup = z.object({
  id: z.string(),
  name: z.string(),
  numWorkers: z.number().int(),
  isSingleton: z.boolean(),
  workers: z.array(z.object({ id: z.string(), email: z.string() })).optional(),
});
/** studio.py StudioBatch. */
export const PyStudioBatch = z.object({
  id: z.string(),
  name: z.string(),
  projectId: z.string(),
  projectName: z.string(),
  batchType: z.string(),
  studioPriority: z.number().nullable().optional(),
  total: z.number().int(),
  completed: z.number().int(),
  groups: z.array(z.unknown()),
});

/** Parses like the client would, failing the test with zod's path list instead of a KeyError. */
export function parsesAs<T extends z.ZodTypeAny>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success)
    throw new Error(
      'the Python client cannot read this answer: ' +
        `${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}\n` +
        `${JSON.stringify(value).slice(0, 500)}`,
    );
  return result.data;
}
