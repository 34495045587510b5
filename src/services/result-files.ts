import { createHmac, timingSafeEqual } from 'node:crypto';
import { findTaskType } from '../domain/tasks/registry.js';
import { resultFileBody } from '../domain/tasks/result-file.js';
import type { Task } from '../domain/tasks/task.js';
import { notFound, otherShard } from '../errors/index.js';
import type { Store } from '../store/store.js';
import type { TaskRecord } from '../store/task-collection.js';
import type { Tenant } from '../store/tenant.js';

/**
 * Results delivered as a file, as the real service does for lidarannotation: the task's response is a link,
 * `{annotations: {url}}`, and the file behind it is the response the type's schema describes, kept with the task.
 * The URL needs no key (scale_lidar_io fetches it with a plain GET); a secret in it stands for one, as a presigned
 * URL's signature does: the task id signed with the tenant's callback_auth_key (a secret of the tenant's, which
 * its callback receivers, who get the URL anyway, already hold).
 */

const TOKEN_HEX = 32;

/** The response a completion stores: the one given or synthesized, or, for a results-file type, its link. */
export function deliveredResponse(
  tenant: Tenant,
  record: TaskRecord,
  response: Record<string, unknown>,
): Record<string, unknown> {
  if (!findTaskType(record.task.type)?.resultsByFile) return response;
  const token = createHmac('sha256', tenant.settings.callback_auth_key)
    .update(record.task.task_id)
    .digest('hex')
    .slice(0, TOKEN_HEX);
  record.internal.result_file = { token, content: response };
  // Behind a router the link names its shard: it carries no key, so nothing else tells the router where it lives.
  const shard = tenant.shard === undefined ? '' : `?shard=${tenant.shard}`;
  return { annotations: { url: `${tenant.origin}/_mock/results/${record.task.task_id}/${token}${shard}` } };
}

/** The task as its type's rules read it: a results-file type's response is the file's content, not the link. */
export function withResultContent(record: TaskRecord): Task {
  const content = record.internal.result_file?.content;
  return content === undefined ? record.task : { ...record.task, response: content };
}

/**
 * `GET /_mock/results/{taskId}/{token}`: the file's JSON. The task is looked up in every tenant (task ids are
 * unique in the server), and only a matching secret answers it: another tenant's file is found by nobody who
 * was not given its URL. Cost: one map lookup per tenant held.
 */
export function readResultFile(store: Store, taskId: string, token: string, shard?: ShardCheck): unknown {
  if (shard && shard.named !== undefined && shard.named !== shard.self) {
    throw otherShard('Results file', taskId, shard.named, shard.self);
  }
  for (const tenant of store.allTenants()) {
    const file = tenant.tasks.get(taskId)?.internal.result_file;
    if (file && sameSecret(file.token, token)) return resultFileBody(file.content);
  }
  throw notFound('Results file', taskId);
}

/** The shard a results link names, and this server's own (--shard-id). */
interface ShardCheck {
  named: string | undefined;
  self: string | undefined;
}

function sameSecret(kept: string, given: string): boolean {
  const a = Buffer.from(kept);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
