import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { sanitizeHtml } from './html-sanitizer.js';

/** TextCollectionAttachment: shown to taskers beside text collection fields and NER texts. */

const TEXT_ATTACHMENT_TYPES = ['pdf', 'image', 'text', 'video', 'website', 'audio'] as const;

const TextCollectionAttachmentSchema = extendApi(
  z
    .object({
      type: z.enum(TEXT_ATTACHMENT_TYPES),
      content: z.string().refine((s) => s.trim() !== '', 'must be non-empty content or a link to the file'),
      forms: z.array(z.string().min(1)).optional(),
    })
    .strict()
    // The service keeps only the allowed HTML tags inside text content: the stored params show the result.
    .transform((attachment) =>
      attachment.type === 'text' ? { ...attachment, content: sanitizeHtml(attachment.content) } : attachment,
    ),
  {
    description:
      'Content (Markdown for type text, whose HTML is sanitized to the allowed tags) or a link to the file; ' +
      'forms names field_ids of form fields: the attachment is shown only while one of them is active.',
  },
);
export type TextCollectionAttachment = z.infer<typeof TextCollectionAttachmentSchema>;

export const TextCollectionAttachmentsSchema = z.array(TextCollectionAttachmentSchema);
