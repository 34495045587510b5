import { format, parse } from 'content-type';

/** The longest mime_type kept: a media type and a few parameters, never a document. */
export const MAX_MEDIA_TYPE_CHARS = 255;

/** A media type as stored and served (`type/subtype; param=value`), or undefined when `text` is none. */
export function normalizedMediaType(text: string): string | undefined {
  if (text.length > MAX_MEDIA_TYPE_CHARS) return undefined;
  try {
    // The header grammar (RFC 9110): no line breaks, NUL or spaces inside a token, so it is safe as a header.
    return format(parse(text));
  } catch {
    return undefined;
  }
}

/**
 * Types a browser shows as passive content. Anything else it may run (HTML, SVG, XML, scripts) or hand to a
 * plug-in (PDF), so it leaves the mock's origin only as a download.
 */
const INLINE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/bmp',
  'image/tiff',
  'image/avif',
  'text/plain',
  'text/csv',
  'application/json',
  'application/octet-stream',
]);
const INLINE_FAMILIES = ['audio/', 'video/'];

/**
 * Headers that serve an uploaded file's bytes without letting them act on the mock's origin (where the
 * inspector keeps a key): no sniffing, no script even if a type slips through, and active types downloaded.
 */
export function servedFileHeaders(mimeType: string | null): Record<string, string> {
  const type = (mimeType === null ? undefined : normalizedMediaType(mimeType)) ?? 'application/octet-stream';
  const essence = type.split(';')[0]?.toLowerCase() ?? '';
  const inline = INLINE_TYPES.has(essence) || INLINE_FAMILIES.some((family) => essence.startsWith(family));
  return {
    'Content-Type': type,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    ...(!inline && { 'Content-Disposition': 'attachment' }),
  };
}
