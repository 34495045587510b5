import type { StateFile } from '../domain/files/state.js';
import { FileCollection } from '../store/file-collection.js';
import type { Tenant } from '../store/tenant.js';
import { attachmentUrl } from './files.js';

/** Files in the tenant's exported state, oldest first, with their bytes as base64. */
export function exportFiles(tenant: Tenant): StateFile[] {
  return tenant.files.all().map((record) => {
    const bytes = FileCollection.bytesOf(record);
    return { ...structuredClone(record.file), content_base64: bytes ? bytes.toString('base64') : null };
  });
}

/**
 * Loads exported files into a fresh tenant. StateFilesSchema has already checked them whole
 * (ids, reference_ids, sizes) at the edge, so nothing here can fail halfway.
 */
export function importFiles(tenant: Tenant, files: StateFile[]): void {
  const sorted = [...files].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
  for (const { content_base64, ...file } of sorted) {
    // Seed states are loaded under fresh keys: the URL follows the importing account.
    tenant.files.insert(
      { ...structuredClone(file), attachment_url: attachmentUrl(tenant.account, file.id) },
      content_base64 === null ? null : Buffer.from(content_base64, 'base64'),
    );
    tenant.noteStamp(Date.parse(file.created_at));
  }
}
