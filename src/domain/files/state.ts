import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { IsoTimestampSchema, StoredIdSchema } from '../common/stored-values.js';
import { MAX_MEDIA_TYPE_CHARS, normalizedMediaType } from './media-type.js';
import { FileSchema } from './schemas.js';

/** Files in an exported state: the record plus its bytes (null for imported URLs, never fetched). */

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const StateFileSchema = FileSchema.extend({
  mime_type: z
    .string()
    .refine((text) => normalizedMediaType(text) !== undefined, {
      message:
        'must be a media type such as image/png (type/subtype; parameters), ' +
        `at most ${MAX_MEDIA_TYPE_CHARS} characters`,
    })
    .nullable(),
  id: StoredIdSchema,
  created_at: IsoTimestampSchema,
  updated_at: z.string().datetime({ offset: true }),
  content_base64: extendApi(
    z
      .string()
      .refine((text) => BASE64.test(text), 'must be base64')
      .nullable(),
    {
      description: 'The bytes, base64; null for a file imported by URL',
    },
  ),
})
  .strict()
  .superRefine((file, ctx) => {
    if (file.content_base64 !== null && !BASE64.test(file.content_base64)) return; // reported above
    const bytes = file.content_base64 === null ? null : Buffer.byteLength(file.content_base64, 'base64');
    if (bytes !== file.size) {
      const expected =
        bytes === null ? 'null when content_base64 is null' : `${bytes}, the byte length of content_base64`;
      ctx.addIssue({ code: 'custom', path: ['size'], message: `must be ${expected}` });
    }
  });
export type StateFile = z.infer<typeof StateFileSchema>;

/** Ids and reference_ids are unique within a tenant; checked here so an import fails before anything is reset. */
export const StateFilesSchema = z.array(StateFileSchema).superRefine((files, ctx) => {
  const ids = new Map<string, number>();
  const references = new Map<string, string>();
  files.forEach((file, index) => {
    if (ids.has(file.id))
      ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `repeats ${file.id} (files[${ids.get(file.id)}])` });
    ids.set(file.id, index);
    if (file.reference_id === undefined) return;
    const holder = references.get(file.reference_id);
    if (holder)
      ctx.addIssue({
        code: 'custom',
        path: [index, 'reference_id'],
        message: `"${file.reference_id}" is also used by file ${holder}`,
      });
    else references.set(file.reference_id, file.id);
  });
});
