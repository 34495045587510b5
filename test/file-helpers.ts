import { basic, KEY, type TestApp } from './helpers.js';

/** Upload helpers for the files tests: FormData as fetch builds it, and hand-made bodies as other clients send them. */

export interface FilePartSpec {
  name?: string;
  filename: string;
  /** Omitted: the part carries no Content-Type, as the Python client's does. */
  type?: string;
  content: string | Uint8Array;
}

const BOUNDARY = '----labelmock-test-boundary';

/** A multipart body built by hand, with full control over each part's headers. */
export function rawMultipart(
  fields: Record<string, string>,
  file?: FilePartSpec,
): { body: Uint8Array<ArrayBuffer>; contentType: string } {
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    const type = file.type === undefined ? '' : `Content-Type: ${file.type}\r\n`;
    chunks.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; ` +
          `name="${file.name ?? 'file'}"; filename="${file.filename}"\r\n${type}\r\n`,
      ),
    );
    chunks.push(Buffer.from(file.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return { body: new Uint8Array(Buffer.concat(chunks)), contentType: `multipart/form-data; boundary=${BOUNDARY}` };
}

export function formOf(
  fields: Record<string, string>,
  file?: { name?: string; filename: string; type?: string; content: BlobPart },
): FormData {
  const form = new FormData();
  if (file) form.append(file.name ?? 'file', new Blob([file.content], { type: file.type ?? '' }), file.filename);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

async function parsed(res: Response) {
  const text = await res.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: res.status, body, headers: res.headers };
}

/** POST /v1/files/upload with a FormData or raw body. */
export async function upload(
  t: TestApp,
  body: FormData | { body: Uint8Array<ArrayBuffer> | ReadableStream; contentType: string },
  { key = KEY, headers = {} }: { key?: string; headers?: Record<string, string> } = {},
) {
  const init: RequestInit & { duplex?: 'half' } = {
    method: 'POST',
    headers: { authorization: basic(key), ...headers },
  };
  if (body instanceof FormData) init.body = body;
  else {
    init.body = body.body;
    init.headers = { ...init.headers, 'content-type': body.contentType };
    if (body.body instanceof ReadableStream) init.duplex = 'half';
  }
  return parsed(await t.app.request('/v1/files/upload', init));
}

export async function uploadText(
  t: TestApp,
  content: string,
  fields: Record<string, string> = {},
  key = KEY,
  filename = 'note.txt',
) {
  const res = await upload(t, formOf(fields, { filename, type: 'text/plain', content }), { key });
  if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** GET /_mock/files/{id}/content: the raw answer, bytes intact. */
export async function readContent(t: TestApp, id: string, key = KEY) {
  const res = await t.app.request(`/_mock/files/${id}/content`, { headers: { authorization: basic(key) } });
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

export const project = (t: TestApp, name: string, key = KEY) =>
  t.call('POST', '/v1/projects', { key, body: { type: 'imageannotation', name } });
