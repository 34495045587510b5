import { fileQuotaExceeded } from '../errors/index.js';

/**
 * Uploaded bytes stay in memory for the life of the tenant, so each tenant has a ceiling
 * (--max-file-bytes-per-tenant). Past it an upload is a 413 naming the limit, and nothing is
 * stored; a reset (or a state import) replaces the tenant's files and frees their bytes.
 */
export function checkFileQuota(heldBytes: number, addedBytes: number, limitBytes: number): void {
  if (heldBytes + addedBytes <= limitBytes) return;
  throw fileQuotaExceeded(heldBytes, addedBytes, limitBytes);
}

/** A state import replaces the tenant's files: their bytes alone must fit. */
export function checkImportedFileQuota(files: readonly { content_base64: string | null }[], limitBytes: number): void {
  const bytesOf = (base64: string | null) => (base64 === null ? 0 : Buffer.byteLength(base64, 'base64'));
  const bytes = files.reduce((sum, file) => sum + bytesOf(file.content_base64), 0);
  checkFileQuota(0, bytes, limitBytes);
}
