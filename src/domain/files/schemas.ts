import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { ApiError } from '../../errors/index.js';
import { parseGuardedJson } from '../common/json-shape.js';
import { StoredMetadataSchema } from '../common/metadata.js';
import { AttachmentUrlSchema, MetadataSchema, TimestampSchema } from '../common/values.js';
import { FILE_MAX_BYTES } from './limits.js';

/** Wire shapes of files. */

const FileIdSchema = extendApi(z.string(), {
  description: '24 hex digits',
  example: '65f1c0ffee0123456789abcd',
});

export const FileSchema = z.object({
  id: FileIdSchema,
  attachment_url: extendApi(z.string(), {
    description: 'scaledata://<account>/<id>: usable as a task attachment by keys of the same account and mode',
    example: 'scaledata://acme/65f1c0ffee0123456789abcd',
  }),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
  mime_type: z.string().nullable(),
  project_names: z.array(z.string()),
  /** null for imports: the mock never fetches an imported URL, so it does not know the size. */
  size: z.number().int().nullable(),
  display_name: z.string(),
  reference_id: z.string().optional(),
  metadata: StoredMetadataSchema,
  file_url: z.string().optional(),
});
export type FileObject = z.infer<typeof FileSchema>;

/**
 * A JSON object sent as a string (multipart fields and query strings carry only text), named `name`
 * in errors. Its text is held to the body limits (depth, number of values) before it is parsed: it
 * ends up stored or compared like any body; as metadata, its `__proto__` keys are kept.
 */
export const jsonObjectText = (example: string, name = 'metadata') =>
  extendApi(
    z.string().transform((text, ctx) => {
      try {
        return parseGuardedJson(text, { root: name, metadata: true });
      } catch (err) {
        if (err instanceof ApiError) throw err;
        ctx.addIssue({
          code: 'custom',
          message: `must be a JSON object sent as a string, e.g. ${example} (got invalid JSON)`,
        });
        return z.NEVER;
      }
    }),
    { type: 'string', description: `A JSON object as a string, e.g. ${example}` },
  );

/**
 * The text fields of an upload. An empty field counts as absent: HTML forms and curl -F send
 * empty values for fields left blank.
 */
const optionalText = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());

export const UploadFieldsSchema = z
  .object({
    display_name: optionalText,
    project_name: optionalText,
    reference_id: optionalText,
    metadata: z.preprocess(
      (v) => (v === '' ? undefined : v),
      jsonObjectText('{"k":"v"}').pipe(MetadataSchema).optional(),
    ),
  })
  .strict();

export const UPLOAD_TEXT_FIELDS = ['display_name', 'project_name', 'reference_id', 'metadata'] as const;
export const UPLOAD_FIELDS = ['file', ...UPLOAD_TEXT_FIELDS] as const;

/** Documentation only: the multipart body of POST /v1/files/upload (read by the handler itself). */
export const UploadFormSchema = z.object({
  file: extendApi(z.string(), {
    format: 'binary',
    description:
      `The file (at most 80 MB: ${FILE_MAX_BYTES} bytes). ` +
      "Without a part Content-Type, mime_type comes from the file name's extension",
  }),
  display_name: extendApi(z.string().optional(), { description: "Defaults to the part's file name" }),
  project_name: extendApi(z.string().optional(), { description: 'A project of the account, usable by this key' }),
  reference_id: extendApi(z.string().optional(), { description: 'Unique per account and mode: a reused one is a 409' }),
  metadata: extendApi(z.string().optional(), { description: 'A JSON object as a string, at most 10 KB' }),
});

export const ImportFileBodySchema = z
  .object({
    file_url: AttachmentUrlSchema,
    project_name: z.string().min(1).optional(),
    display_name: z.string().min(1).optional(),
    reference_id: z.string().min(1).optional(),
    metadata: MetadataSchema.optional(),
  })
  .strict();

/** One page of GET /v1/files; next_cursor is null on the last page. */
export const FileListSchema = z.object({
  docs: z.array(FileSchema),
  limit: z.number().int(),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});

export const FileIdParamsSchema = z.object({ fileId: z.string() });
