import { appBudgetSpent } from '../errors/index.js';
import type { Store } from '../store/store.js';

/** Uploaded bytes all tenants hold in memory now (with --data-dir, only those not yet written to blobs/). */
function uploadBytesInMemory(store: Store): number {
  let bytes = 0;
  for (const tenant of store.allTenants()) bytes += tenant.files.memoryBytes;
  return bytes;
}

/**
 * --max-upload-memory-bytes: per-tenant quotas multiply by the number of keys, so the bytes every tenant holds
 * in memory have one app-wide ceiling too. Checked before an upload is read (a full server reads nothing) and
 * again with its size once it is.
 */
export function checkUploadMemory(store: Store, adding: number, maxBytes: number): void {
  const held = uploadBytesInMemory(store);
  if (held + adding <= maxBytes && (adding > 0 || held < maxBytes)) return;
  throw appBudgetSpent(
    `uploaded files held in memory by all tenants come to ${held} bytes` +
      (adding > 0 ? ` (+${adding} for this one)` : ''),
    `${maxBytes} bytes at most`,
    '--max-upload-memory-bytes',
  );
}
