/**
 * A multipart/form-data body as plain data: what the edge's reader (http/multipart.ts) hands the
 * upload service, so the service needs nothing from the HTTP layer.
 */

interface FilePart {
  name: string;
  filename: string;
  /** The part's Content-Type, when it declared one. */
  contentType?: string;
  bytes: Buffer;
}

export interface MultipartForm {
  fields: Record<string, string>;
  files: FilePart[];
}
