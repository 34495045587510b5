import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { answerChecker } from '../src/http/self-check/answer-check.js';
import { labelmockDocuments } from '../src/tools/documents.js';
import { harText } from '../src/tools/record/main.js';
import { MAX_KEPT_ANSWER_BYTES, type Recorder, startRecorder } from '../src/tools/record/recorder.js';
import { base64Forms } from '../src/tools/record/secret-forms.js';
import { basic } from './helpers.js';
import { cleanupsAfterEach, serveFetch } from './recording-targets.js';

/** labelmock record against a hostile client or a hostile answer (the fourth security round). */

const cleanups = cleanupsAfterEach();
const check = answerChecker(await labelmockDocuments());
const KEY = 'live_canary_0123456789';

async function recorderFor(target: string, redact: string[] = []): Promise<Recorder> {
  const recorder = await startRecorder({ target, port: 0, host: '127.0.0.1', redact, check });
  cleanups.push(async () => void (await recorder.stop()));
  return recorder;
}

/** A target that answers `answer(request)` and remembers every request it was sent. */
async function target(answer: (req: Request) => Response = () => Response.json({ ok: true })) {
  const seen: { url: string; authorization: string | null; body: string }[] = [];
  const url = await serveFetch(async (req) => {
    seen.push({ url: req.url, authorization: req.headers.get('authorization'), body: await req.text() });
    return answer(req);
  }, cleanups);
  return { url, seen };
}

/** A raw HTTP/1.1 request: the request target and Host exactly as given (fetch would normalize both). */
function raw(base: string, path: string, headers: Record<string, string> = {}) {
  const { hostname, port } = new URL(base);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ hostname, port, path, headers: { authorization: basic(KEY), ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('labelmock record against a hostile client', () => {
  it('an absolute-form request target is refused (400) and no other host is contacted', async () => {
    const [a, b] = [await target(), await target()];
    const recorder = await recorderFor(a.url);
    const res = await raw(recorder.url, `${b.url}/abs`);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({
      status_code: 400,
      error: expect.stringMatching(/^labelmock record does not forward this request: the request target must be/),
    });
    expect([a.seen.length, b.seen.length]).toEqual([0, 0]);
  });

  it('a path starting with two slashes stays a path on --target, with the credentials going nowhere else', async () => {
    const [a, b] = [await target(), await target()];
    const recorder = await recorderFor(`${a.url}/api`);
    const other = new URL(b.url).host;
    expect((await raw(recorder.url, `//${other}/dbl?x=1`)).status).toBe(200);
    expect((await raw(recorder.url, '//v1/tasks')).status).toBe(200);
    expect(b.seen).toEqual([]);
    expect(a.seen.map((s) => new URL(s.url).pathname + new URL(s.url).search)).toEqual([
      `/api//${other}/dbl?x=1`,
      '/api//v1/tasks',
    ]);
  });

  it('a foreign Host (DNS rebinding) is refused with a 400 naming it; loopback names are answered', async () => {
    const a = await target();
    const recorder = await recorderFor(a.url);
    const res = await raw(recorder.url, '/v1/tasks', { host: 'rebind.attacker.example:4011' });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error).toContain('"rebind.attacker.example", which labelmock record does not answer');
    expect(a.seen).toEqual([]);
    expect((await raw(recorder.url, '/v1/tasks', { host: 'localhost:4011' })).status).toBe(200);
  });
});

describe('labelmock record against a hostile answer', () => {
  it('an answer nested 3,000 deep is sent whole and recorded with its check; the proxy keeps serving', async () => {
    let nested = '{"label":"x"}';
    for (let i = 0; i < 3000; i += 1) nested = `{"label":"x","subchoices":[${nested}]}`;
    const a = await target(() => new Response(nested, { headers: { 'content-type': 'application/json' } }));
    const recorder = await recorderFor(a.url);
    const res = await fetch(`${recorder.url}/v1/task/abc`, { headers: { authorization: basic(KEY) } });
    expect(await res.text()).toBe(nested);
    expect((await fetch(`${recorder.url}/v1/tasks`, { headers: { authorization: basic(KEY) } })).status).toBe(200);
    expect(await recorder.stop()).toEqual([]);
    expect(recorder.entries).toHaveLength(2);
    expect(recorder.entries[0]?.response.content.text).toBe(nested);
    expect(JSON.parse(harText(recorder.entries)).log.entries).toHaveLength(2);
  });

  it('a check that throws after the answer was sent is noted on the entry; nothing ends the recording', async () => {
    const a = await target();
    const recorder = await startRecorder({
      target: a.url,
      port: 0,
      host: '127.0.0.1',
      redact: [],
      check: () => {
        throw new RangeError('Maximum call stack size exceeded');
      },
    });
    cleanups.push(async () => void (await recorder.stop()));
    for (const path of ['/v1/tasks', '/v1/projects']) {
      const res = await fetch(`${recorder.url}${path}`, { headers: { authorization: basic(KEY) } });
      expect(await res.json()).toEqual({ ok: true });
    }
    expect(await recorder.stop()).toEqual([]);
    expect(recorder.entries.map((e) => e._labelmock?.violations)).toEqual([
      ['the answer could not be checked: Maximum call stack size exceeded'],
      ['the answer could not be checked: Maximum call stack size exceeded'],
    ]);
  });

  it('an answer larger than a recording keeps is streamed whole to the client and recorded by its size', async () => {
    const size = MAX_KEPT_ANSWER_BYTES + 3 * 1024 * 1024;
    const a = await target(
      () => new Response(new Uint8Array(size).fill(7), { headers: { 'content-type': 'application/octet-stream' } }),
    );
    const recorder = await recorderFor(a.url);
    const res = await fetch(`${recorder.url}/v1/files/big`, { headers: { authorization: basic(KEY) } });
    expect((await res.arrayBuffer()).byteLength).toBe(size);
    expect(await recorder.stop()).toEqual([]);
    expect(recorder.entries[0]?.response.content).toEqual({
      size,
      mimeType: 'application/octet-stream',
      comment: `${size} bytes not kept (over the ${MAX_KEPT_ANSWER_BYTES} bytes a recording keeps of an answer)`,
    });
  });

  it.each([
    ['application/octet-stream', 0],
    ['application/pdf', 1],
    [undefined, 2],
  ])(
    'a binary answer (%s) echoing the key at offset %i is not kept, and the archive holds no base64 of it',
    async (type, at) => {
      const bytes = Buffer.concat([Buffer.alloc(at, 0xff), Buffer.from(`key=${KEY};`), Buffer.alloc(5, 1)]);
      const a = await target(() => new Response(bytes, { headers: type ? { 'content-type': type } : {} }));
      const recorder = await recorderFor(a.url);
      const res = await fetch(`${recorder.url}/v1/files/doc`, { headers: { authorization: basic(KEY) } });
      expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);
      expect(await recorder.stop()).toEqual([]);
      const text = harText(recorder.entries);
      for (const form of base64Forms(KEY)) expect(text).not.toContain(form);
      expect(recorder.entries[0]?.response.content.comment).toBe(`${bytes.length} bytes not kept (they held a secret)`);
      expect(recorder.entries[0]?._labelmock?.redacted).toContain('response.content.text');
    },
  );

  it('the last check finds the key in base64 at any offset, and a recording holding it is refused', async () => {
    const a = await target();
    const recorder = await recorderFor(a.url);
    const hidden = Buffer.concat([Buffer.from('x'), Buffer.from(KEY)]).toString('base64');
    await fetch(`${recorder.url}/v1/tasks`, {
      method: 'POST',
      headers: { authorization: basic(KEY), 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: { blob: hidden } }),
    });
    const leaks = await recorder.stop();
    expect(leaks).toEqual([expect.stringMatching(/^entry 0 \(POST .*\/v1\/tasks\) holds the secret liv\.\.\.$/)]);
  });
});

describe('labelmock record redacts secrets in every escaping a client uses', () => {
  const signed = 'https://b.example/a.jpg?X-Amz-Credential=AKIAEXAMPLE&X-Amz-Signature=f00dfeed';
  const secret = 'hunter2/secret!&more';
  const bodies: [string, string, string][] = [
    [
      'JSON with escaped slashes (PHP)',
      'application/json',
      JSON.stringify({ a: signed, b: secret }).replaceAll('/', '\\/'),
    ],
    [
      'JSON with & < > as \\u escapes (Go)',
      'application/json',
      JSON.stringify({ a: signed, b: secret }).replace(/[&<>]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`),
    ],
    [
      'JSON with every character \\u-escaped',
      'application/json',
      `{"a":"${[...signed].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}",` +
        `"b":"${secret}"}`,
    ],
    [
      'a form encoded as urlencode does',
      'application/x-www-form-urlencoded',
      `a=${pyQuote(signed)}&b=${pyQuote(secret)}`,
    ],
    [
      'a form with every byte percent-encoded',
      'application/x-www-form-urlencoded',
      `a=${pctAll(signed)}&b=${pctAll(secret).toLowerCase()}`,
    ],
  ];

  it.each(bodies)('%s: no secret and no signature survives, the body still parses', async (_name, type, body) => {
    const a = await target(() => new Response(body, { headers: { 'content-type': type } }));
    const recorder = await recorderFor(a.url, [secret]);
    await fetch(`${recorder.url}/v1/echo`, {
      method: 'POST',
      headers: { authorization: basic(KEY), 'content-type': type },
      body,
    });
    expect(await recorder.stop()).toEqual([]);
    const entry = recorder.entries[0];
    for (const text of [entry?.request.postData?.text ?? '', entry?.response.content.text ?? '']) {
      const values = type.includes('json') ? Object.values(JSON.parse(text)) : [...new URLSearchParams(text).values()];
      expect(values.join('\n')).not.toMatch(/AKIAEXAMPLE|f00dfeed|hunter2/);
      expect(values.join('\n')).toContain('X-Amz-Signature=REDACTED');
    }
    expect(entry?._labelmock?.redacted).toEqual([
      'request.headers.authorization',
      'request.postData.text',
      'response.content.text',
    ]);
  });
});

/** Python's urlencode (quote_plus): everything but letters, digits and `_.-~` percent-encoded, a space as `+`. */
function pyQuote(text: string): string {
  return [...Buffer.from(text)]
    .map((b) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** curl --data-urlencode at its most eager: every byte but letters and digits. */
function pctAll(text: string): string {
  return [...Buffer.from(text)]
    .map((b) =>
      /[A-Za-z0-9]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}
