import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { servedFileHeaders } from '../domain/files/media-type.js';
import { FileIdParamsSchema } from '../domain/files/schemas.js';
import { defineRoute, type RouteSpec } from '../http/route.js';
import type { Services } from '../services/context.js';
import { fileContent } from '../services/files.js';

const FileContentSchema = extendApi(z.string(), {
  format: 'binary',
  description: "The uploaded bytes, with the file's mime_type",
});

/** The /_mock routes for files: read back what an upload stored. */
export function fileControlRoutes(_services: Services): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/_mock/files/{fileId}/content',
      tag: 'Control',
      summary:
        "The bytes of an uploaded file of the caller's tenant (an imported file has none: its URL is never fetched)",
      description:
        "Answers the stored bytes of an uploaded file, with the file's mime_type as Content-Type; an imported " +
        'file has no bytes (404). The bytes never act on this origin: `X-Content-Type-Options: nosniff` and ' +
        "`Content-Security-Policy: default-src 'none'; sandbox` always, and every type but images, audio, video, " +
        'plain text, CSV, JSON and octet-stream comes as `Content-Disposition: attachment` (HTML, SVG, XML, PDF, ' +
        'scripts are downloaded, never shown).',
      params: FileIdParamsSchema,
      response: FileContentSchema,
      // The bytes go out under the type they were uploaded with.
      responseMediaType: '*/*',
      // The bytes of a CSV upload, for instance.
      examples: () => ({ response: 'fridge,oven\n' }),
      errors: ['not_found'],
      handler: ({ tenant, params, c }) => {
        const { bytes, mimeType } = fileContent(tenant, params.fileId);
        // Stored buffers never live on a SharedArrayBuffer, which is all the cast rules out.
        return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
          ...servedFileHeaders(mimeType),
          'Content-Length': String(bytes.length),
        });
      },
    }),
  ];
}
