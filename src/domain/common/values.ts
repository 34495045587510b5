import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { boundedArray } from './bounded.js';
import { MAX_TAGS } from './input-limits.js';

/** Small wire values shared by every area. */

export const TimestampSchema = extendApi(z.string(), {
  format: 'date-time',
  description: 'ISO 8601 UTC with milliseconds',
  example: '2026-01-01T00:00:00.000Z',
});

/** The service's ids are MongoDB ObjectIds: 24 hex digits. Where an id must be one, text that is not is a 400. */
const OBJECT_ID = /^[0-9a-fA-F]{24}$/;
export const ObjectIdTextSchema = extendApi(
  z.string().regex(OBJECT_ID, 'must be an ObjectId: 24 hex digits (invalid MongoDB ObjectId format)'),
  { pattern: OBJECT_ID.source, description: '24 hex digits', example: '6650a8f3c2b1d4e5f6a7b8c9' },
);

export const TaskIdSchema = extendApi(z.string(), {
  description: '24 hex digits',
  example: '5c84d0fe958593004f13e5ba',
});

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const isEmail = (value: string): boolean => EMAIL.test(value);

export function isFullUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return /^[a-z][a-z0-9+.-]*:$/i.test(url.protocol) && (url.host !== '' || url.protocol === 'data:');
  } catch {
    return false;
  }
}

/** A URL of a file to label: any absolute URL (http, https, s3, gs, scaledata, data, ...). */
export const AttachmentUrlSchema = extendApi(
  z.string().refine(isFullUrl, 'must be an absolute URL with a scheme (e.g. https://example.com/image.jpg)'),
  { format: 'uri', example: 'https://example.com/image.jpg' },
);

/** Where callbacks go: a full http(s) URL, or an e-mail address (recorded, never sent). */
export const CallbackTargetSchema = extendApi(
  z
    .string()
    .refine(
      (v) => EMAIL.test(v) || (isFullUrl(v) && /^https?:/i.test(v)),
      'must be a full URL with scheme (e.g. https://example.com/callback) or an e-mail address',
    ),
  { example: 'https://example.com/callback' },
);

/** Metadata and the input limits have their own modules; re-exported where the other shared values are. */
export { MAX_TAGS } from './input-limits.js';
export { MetadataBodySchema, MetadataSchema } from './metadata.js';

export const TagSchema = z.string().refine((s) => s.trim() !== '', 'must be a non-empty string');

// Counted before each tag is checked (bounded.ts): a 500,000-tag body is refused by its length.
export const TagsSchema = extendApi(boundedArray(TagSchema, { max: MAX_TAGS }), {
  description: 'At most 5 non-empty strings',
  example: ['urgent'],
});

/** Task priority: exactly 10, 20 or 30. */
export const TaskPrioritySchema = extendApi(
  z
    .number()
    .int()
    .refine((v) => v === 10 || v === 20 || v === 30, 'must be 10, 20 or 30'),
  { enum: [10, 20, 30] },
);

export const ResultSuccessSchema = z.object({ result: z.literal('success') });
