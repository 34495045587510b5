import { invalidParameter } from '../errors/index.js';
import { formatPath } from '../errors/zod-messages.js';
import type { Tenant } from '../store/tenant.js';

const SCHEME = /^scaledata:\/\//i;
/** Free text: a scaledata:// URL there is not an attachment. */
const SKIPPED = new Set(['metadata', 'callback_url']);

/**
 * A task may name an uploaded file by its scaledata://<account>/<id> URL only when the file
 * belongs to the caller's tenant. Every string of the validated request is visited once; only
 * the ones with the scheme cost more than a prefix test.
 */
export function checkFileAttachments(tenant: Tenant, body: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(body)) {
    if (!SKIPPED.has(key)) visit(tenant, value, [key]);
  }
}

/** `path` is shared and restored after each step: no allocation per visited value. */
function visit(tenant: Tenant, value: unknown, path: (string | number)[]): void {
  if (typeof value === 'string') {
    if (SCHEME.test(value) && !isOwnFile(tenant, value)) {
      throw invalidParameter(
        formatPath(path),
        `${value} is not a file of this account (upload it with POST /v1/files/upload)`,
      );
    }
  } else if (Array.isArray(value)) {
    // Long numeric arrays (point clouds, polygons) are the bulk of big requests: skip them fast.
    if (typeof value[0] === 'number' && value.every((v) => typeof v === 'number')) return;
    for (let index = 0; index < value.length; index += 1) {
      path.push(index);
      visit(tenant, value[index], path);
      path.pop();
    }
  } else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      path.push(key);
      visit(tenant, (value as Record<string, unknown>)[key], path);
      path.pop();
    }
  }
}

function isOwnFile(tenant: Tenant, url: string): boolean {
  const [, account, id] = /^scaledata:\/\/([^/]+)\/([^/?#]+)$/i.exec(url) ?? [];
  return account === tenant.account && id !== undefined && tenant.files.get(id) !== undefined;
}
