import { normalizedMediaType } from './media-type.js';

/**
 * mime_type from a file name or URL path. The official Python client sends its part without a
 * Content-Type (`requests.post(files={"file": f})`), so the extension is the only hint it gives.
 */
const BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  zip: 'application/zip',
  // Point clouds: only las has an IANA type; for ply and pcd these are the names tools use.
  ply: 'application/ply',
  pcd: 'application/pcd',
  las: 'application/vnd.las',
};

/** The type the extension of `name` implies, or undefined for an unknown or missing extension. */
function mimeFromName(name: string): string | undefined {
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1];
  return extension === undefined ? undefined : BY_EXTENSION[extension.toLowerCase()];
}

/**
 * For uploads: the extension first, then the part's own type when it is a well-formed media type, then the
 * generic binary type.
 */
export function uploadMime(filename: string, partType: string | undefined): string {
  const given = partType === undefined ? undefined : normalizedMediaType(partType);
  return mimeFromName(filename) ?? given ?? 'application/octet-stream';
}

/** For imports: the URL path's extension, or null (the mock never fetches the URL to look). */
export function importMime(fileUrl: string): string | null {
  try {
    return mimeFromName(new URL(fileUrl).pathname) ?? null;
  } catch {
    return null;
  }
}
