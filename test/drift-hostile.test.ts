import { describe, expect, it } from 'vitest';
import { templateFinder } from '../src/http/self-check/answer-check.js';
import { labelmockDocuments } from '../src/tools/documents.js';
import { RecordingError, readRecording } from '../src/tools/drift/exchanges.js';
import { type DriftTarget, inProcessTarget, remoteTarget, replay } from '../src/tools/drift/replay.js';
import { summarize } from '../src/tools/drift/report.js';
import { harText } from '../src/tools/record/main.js';
import { startRecorder } from '../src/tools/record/recorder.js';
import { imageRequest } from './helpers.js';
import { cleanupsAfterEach, labelmockService, scenario, serveFetch } from './recording-targets.js';

/** labelmock drift contacts no origin but its --base-url, and replayed callbacks stay on the machine. */

const cleanups = cleanupsAfterEach();
const templateOf = templateFinder(await labelmockDocuments());

/** A HAR archive of one exchange at `url`. */
function harOf(url: string): string {
  const request = {
    method: 'POST',
    url,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: [],
    queryString: [],
    headersSize: -1,
    bodySize: 0,
  };
  const response = {
    status: 200,
    statusText: 'OK',
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: [],
    content: { size: 2, mimeType: 'application/json', text: '{}' },
    redirectURL: '',
    headersSize: -1,
    bodySize: 2,
  };
  const entry = {
    startedDateTime: new Date(0).toISOString(),
    time: 1,
    request,
    response,
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  };
  return JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [entry] } });
}

/** An in-process target that also keeps every request drift sent it. */
function watchedTarget() {
  const inner = inProcessTarget();
  cleanups.push(() => inner.close());
  const sent: { path: string; body: string | undefined }[] = [];
  const target: DriftTarget = {
    send: (method, path, headers, body) => {
      sent.push({ path, body });
      return inner.send(method, path, headers, body);
    },
    close: () => {},
  };
  return { target, sent };
}

/** The scenario recorded against labelmock with `callbackUrl` on its task: a production webhook, say. */
async function recordedWithCallback(callbackUrl: string) {
  const service = await serveFetch(labelmockService(cleanups), cleanups);
  const recorder = await startRecorder({ target: service, port: 0, host: '127.0.0.1', redact: [] });
  await scenario(recorder.url, service, 'test_recorded', imageRequest({ callback_url: callbackUrl }));
  await recorder.stop();
  return readRecording(harText(recorder.entries));
}

describe('labelmock drift against a hostile recording', () => {
  it.each(['x:7/internal/admin', 'file:///etc/passwd', 'javascript:alert(1)'])(
    'an entry at %s is refused as not http(s): nothing is replayed',
    (url) => {
      expect(() => readRecording(harOf(url))).toThrow(RecordingError);
      expect(() => readRecording(harOf(url))).toThrow(/is not an http\(s\) URL/);
    },
  );

  it('--base-url: a path that would name another port or host is refused before anything is sent', async () => {
    let contacted = 0;
    const base = await serveFetch(() => {
      contacted += 1;
      return Response.json({});
    }, cleanups);
    const target = remoteTarget(base);
    await expect(target.send('POST', '7/internal/admin', {})).rejects.toThrow(/not replayed: the request target/);
    await expect(target.send('GET', '//127.0.0.1:1/x', {})).resolves.toMatchObject({ status: 200 });
    expect(contacted).toBe(1);
  });

  it('replayed callback_urls go to a local sink of drift, and the drift is still none', async () => {
    const recording = await recordedWithCallback('https://hooks.production.example/labeling?token=abc');
    const { target, sent } = watchedTarget();
    const summary = summarize(await replay(recording, target, templateOf), new Set());
    expect(summary.new).toBe(0);
    const created = JSON.parse(sent.find((s) => s.path === '/v1/task/imageannotation')?.body ?? '{}');
    expect(created.callback_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\/\d+$/);
    expect(sent.map((s) => s.body ?? '').join('\n')).not.toContain('hooks.production.example');
  });

  it('--keep-callback-urls replays them as recorded', async () => {
    const production = 'https://hooks.production.example/labeling';
    const { target, sent } = watchedTarget();
    await replay(await recordedWithCallback(production), target, templateOf, { keepCallbackUrls: true });
    const created = JSON.parse(sent.find((s) => s.path === '/v1/task/imageannotation')?.body ?? '{}');
    expect(created.callback_url).toBe(production);
  });
});
