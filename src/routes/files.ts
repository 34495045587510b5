import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { JsonObjectSchema } from '../domain/common/metadata.js';
import { FILE_MAX_BYTES, MULTIPART_OVERHEAD_BYTES } from '../domain/files/limits.js';
import {
  FileListSchema,
  FileSchema,
  ImportFileBodySchema,
  jsonObjectText,
  UPLOAD_TEXT_FIELDS,
  UploadFormSchema,
} from '../domain/files/schemas.js';
import { uploadTooLarge } from '../http/body-limits.js';
import { readMultipart } from '../http/multipart.js';
import { queryInt, queryList, queryString } from '../http/query.js';
import { defineRoute, type RouteSpec } from '../http/route.js';
import type { Services } from '../services/context.js';
import { listFiles } from '../services/file-list.js';
import { importFile, uploadFile } from '../services/files.js';

const FileListQuerySchema = z.object({
  projects: queryList.refine((v) => v !== undefined && v.length > 0, 'is required: one or more project names'),
  metadata: extendApi(queryString.pipe(jsonObjectText('{"k":"v"}').pipe(JsonObjectSchema).optional()), {
    type: 'string',
    description: 'A JSON object as a string: files whose metadata has every key with an equal value',
  }),
  cursor: extendApi(queryString, { type: 'string', description: 'next_cursor of the previous page' }),
  limit: queryInt(1, 100),
});

/** Text fields stay small: metadata is at most 10 KB, names are short. */
const FIELD_MAX_BYTES = 64 * 1024;

export function fileRoutes(services: Services): RouteSpec[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/files/upload',
      tag: 'Files',
      summary: 'Upload a file (multipart/form-data, at most 80 MB); answers the file record',
      description:
        "The record's attachment_url (scaledata://<account>/<id>) can be used as a task attachment. " +
        'A reused reference_id is a 409.',
      multipart: UploadFormSchema,
      response: FileSchema,
      // payload_too_large also when the upload would take the tenant past --max-file-bytes-per-tenant;
      // service_unavailable (an edge error, always listed) when all tenants' uploads fill --max-upload-memory-bytes.
      errors: ['not_found', 'conflict', 'payload_too_large'],
      handler: async ({ tenant, c }) => {
        // Its bytes count against --max-upload-memory-bytes as they arrive, and stop counting once it is stored.
        const reading = services.uploads.begin();
        try {
          const form = await readMultipart(c, {
            fileBytes: FILE_MAX_BYTES,
            fieldBytes: FIELD_MAX_BYTES,
            totalBytes: FILE_MAX_BYTES + MULTIPART_OVERHEAD_BYTES,
            tooLarge: uploadTooLarge,
            expected: 'a "file" part and optional display_name, project_name, reference_id, metadata fields',
            // `curl -F metadata=@meta.json` sends a text field as a file part: read it, never ignore it.
            textFields: UPLOAD_TEXT_FIELDS,
            arriving: reading.grow,
          });
          reading.release();
          services.uploads.checkStored(form.files.reduce((sum, file) => sum + file.bytes.length, 0));
          return uploadFile(tenant, services.ids, form, services.store.limits.maxFileBytesPerTenant);
        } finally {
          reading.release();
        }
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/files/import',
      tag: 'Files',
      summary: 'Record a file by URL (never fetched: size is null); answers the file record',
      description:
        'Records a file by its URL for use as a task attachment (scaledata://...). The mock never fetches the ' +
        'URL, so size and mime_type are null. A reference_id is unique per account and mode: a used one is a 409.',
      body: ImportFileBodySchema,
      response: FileSchema,
      errors: ['not_found', 'conflict'],
      handler: ({ tenant, body }) => importFile(tenant, services.ids, body),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/files',
      tag: 'Files',
      summary: 'List files of one or more projects, newest first, optionally filtered by metadata; paged by cursor',
      description:
        'The interface does not show the path of its filtered file listing; labelmock serves it here. ' +
        'A file matches when it is in any ' +
        'of the projects and its metadata has every key of the metadata filter with an equal value.',
      query: FileListQuerySchema,
      response: FileListSchema,
      errors: ['not_found'],
      handler: ({ tenant, query }) => listFiles(tenant, { ...query, projects: query.projects ?? [] }),
    }),
  ];
}
