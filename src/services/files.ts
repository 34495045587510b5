import type { z } from 'zod';
import { importMime, uploadMime } from '../domain/files/mime.js';
import {
  type FileObject,
  type ImportFileBodySchema,
  UPLOAD_FIELDS,
  UploadFieldsSchema,
} from '../domain/files/schemas.js';
import type { MultipartForm } from '../domain/files/upload-form.js';
import { parseOrThrow } from '../domain/validate.js';
import { alreadyHeld, fileHasNoContent, invalidCombination, invalidParameter, notFound } from '../errors/index.js';
import { toIso } from '../runtime/clock.js';
import type { IdGenerator } from '../runtime/ids.js';
import { FileCollection, type FileRecord } from '../store/file-collection.js';
import type { Tenant } from '../store/tenant.js';
import { checkFileQuota } from './file-quota.js';
import { requireUsableProject } from './projects.js';

export const attachmentUrl = (account: string, id: string) => `scaledata://${account}/${id}`;

interface NewFile {
  display_name: string;
  mime_type: string | null;
  size: number | null;
  project_name?: string;
  reference_id?: string;
  metadata?: Record<string, unknown>;
  file_url?: string;
}

/**
 * POST /v1/files/upload: the form's `file` part and its text fields, checked, then stored within the
 * tenant's byte quota.
 */
export function uploadFile(tenant: Tenant, ids: IdGenerator, form: MultipartForm, quotaBytes: number): FileObject {
  const unknown = [...Object.keys(form.fields), ...form.files.map((f) => f.name)].filter(
    (name) => !(UPLOAD_FIELDS as readonly string[]).includes(name),
  );
  if (unknown.length > 0) {
    const reasons = unknown.map((name) => `"${name}" is not an allowed parameter`).join('; ');
    throw invalidCombination(`${reasons} (allowed: ${UPLOAD_FIELDS.join(', ')})`);
  }
  if (form.fields.file !== undefined)
    throw invalidParameter('file', 'must be a file part (a multipart part with a filename), not a text field');
  const file = form.files.find((f) => f.name === 'file');
  if (!file) throw invalidParameter('file', 'is required (a multipart part named "file" holding the bytes)');
  const fields = parseOrThrow(UploadFieldsSchema, form.fields, '');
  const record = storeFile(
    tenant,
    ids,
    {
      ...fields,
      display_name: fields.display_name ?? (file.filename || 'file'),
      mime_type: uploadMime(file.filename, file.contentType),
      size: file.bytes.length,
    },
    { bytes: file.bytes, quotaBytes },
  );
  return record.file;
}

/** POST /v1/files/import: recorded without fetching the URL, so size is null. */
export function importFile(tenant: Tenant, ids: IdGenerator, body: z.infer<typeof ImportFileBodySchema>): FileObject {
  const record = storeFile(
    tenant,
    ids,
    {
      ...body,
      display_name: body.display_name ?? defaultImportName(body.file_url),
      mime_type: importMime(body.file_url),
      size: null,
    },
    null,
  );
  return record.file;
}

/** The last segment of the URL's path, or the whole URL when the path has none. */
function defaultImportName(fileUrl: string): string {
  try {
    const segment = new URL(fileUrl).pathname.split('/').pop() ?? '';
    return decodeURIComponent(segment) || fileUrl;
  } catch {
    return fileUrl;
  }
}

/** Stores the record; uploaded bytes count against the tenant's quota, checked after the 404 and 409 rules. */
function storeFile(
  tenant: Tenant,
  ids: IdGenerator,
  input: NewFile,
  content: { bytes: Buffer; quotaBytes: number } | null,
): FileRecord {
  const project =
    input.project_name === undefined
      ? undefined
      : requireUsableProject(tenant, input.project_name, 'project_name').project;
  if (input.reference_id !== undefined) {
    const holder = tenant.files.withReference(input.reference_id);
    if (holder) throw alreadyHeld('file', 'reference_id', input.reference_id, holder.file.id);
  }
  if (content) checkFileQuota(tenant.files.storedBytes, content.bytes.length, content.quotaBytes);
  const id = ids.next();
  const now = toIso(tenant.stamp());
  const file: FileObject = {
    id,
    attachment_url: attachmentUrl(tenant.account, id),
    created_at: now,
    updated_at: now,
    mime_type: input.mime_type,
    project_names: project ? [project.name] : [],
    size: input.size,
    display_name: input.display_name,
    ...(input.reference_id !== undefined && { reference_id: input.reference_id }),
    metadata: input.metadata ?? {},
    ...(input.file_url !== undefined && { file_url: input.file_url }),
  };
  return tenant.files.insert(file, content?.bytes ?? null);
}

/** A file of the caller's tenant; another tenant's file is as unknown as a made-up id. */
function requireFile(tenant: Tenant, id: string): FileRecord {
  const record = tenant.files.get(id);
  if (!record) throw notFound('File', id);
  return record;
}

/** The stored bytes; an imported file has none, since the mock never fetches imported URLs. */
export function fileContent(tenant: Tenant, id: string): { bytes: Buffer; mimeType: string | null } {
  const record = requireFile(tenant, id);
  const { file } = record;
  const bytes = FileCollection.bytesOf(record);
  if (!bytes) {
    throw fileHasNoContent(id, file.file_url);
  }
  return { bytes, mimeType: file.mime_type };
}
