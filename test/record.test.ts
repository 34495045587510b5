import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarSchema } from '../src/domain/har/schema.js';
import { answerChecker } from '../src/http/self-check/answer-check.js';
import { labelmockDocuments } from '../src/tools/documents.js';
import { finish, harText } from '../src/tools/record/main.js';
import { type Recorder, startRecorder } from '../src/tools/record/recorder.js';
import { harProblems } from './har-validate.js';
import { basic, imageRequest } from './helpers.js';
import {
  cleanupsAfterEach,
  DIFFERENCES,
  differentService,
  labelmockService,
  scenario,
  serveFetch,
} from './recording-targets.js';

const cleanups = cleanupsAfterEach();

const check = answerChecker(await labelmockDocuments());

async function recorderFor(target: string, redact: string[] = []): Promise<Recorder> {
  const recorder = await startRecorder({ target, port: 0, host: '127.0.0.1', redact, check });
  cleanups.push(async () => void (await recorder.stop()));
  return recorder;
}

describe('labelmock record', () => {
  it('forwards each request and keeps it as HAR 1.2; answers off the documents are noted', async () => {
    const target = await serveFetch(differentService(cleanups), cleanups);
    const recorder = await recorderFor(target);
    const { task_id: taskId } = await scenario(recorder.url, target, 'test_recorded');
    expect(await recorder.stop()).toEqual([]);
    const har = JSON.parse(harText(recorder.entries));
    expect(harProblems(har)).toEqual([]);
    const { entries } = HarSchema.parse(har).log;
    expect(entries.map((e) => `${e.request.method} ${new URL(e.request.url).pathname} ${e.response.status}`)).toEqual([
      'POST /v1/task/imageannotation 200',
      `GET /v1/task/${taskId} 200`,
      `GET /v1/task/${taskId} 200`,
      `${DIFFERENCES.throttled} 429`,
      'GET /v1/task/000000000000000000000000 404',
    ]);
    expect(entries[0]?.request.url.startsWith(target)).toBe(true);
    const created = JSON.parse(entries[0]?.response.content.text ?? '{}');
    expect([created.status, created[DIFFERENCES.extra]]).toEqual(['queued', true]);
    expect(entries[0]?._labelmock?.violations?.join('\n')).toContain(DIFFERENCES.dropped);
    expect(entries[4]?._labelmock?.violations).toBeUndefined();
  });

  it('a recording of labelmock itself notes no violation', async () => {
    const target = await serveFetch(labelmockService(cleanups), cleanups);
    const recorder = await recorderFor(target);
    await scenario(recorder.url, target, 'test_recorded');
    await recorder.stop();
    expect(recorder.entries.flatMap((entry) => entry._labelmock?.violations ?? [])).toEqual([]);
  });

  it('takes out the key, callback auth, URL signatures and --redact strings, and names where', async () => {
    const target = await serveFetch(labelmockService(cleanups), cleanups);
    const recorder = await recorderFor(target, ['hunter2-secret']);
    const key = 'live_canary_0123456789';
    const attachment = 'https://bucket.example.com/a.jpg?X-Amz-Credential=AKIAEXAMPLE&X-Amz-Signature=f00dfeed';
    const body = imageRequest({ attachment, metadata: { note: 'hunter2-secret', echo: key } });
    await scenario(recorder.url, target, key, body);
    expect(await recorder.stop()).toEqual([]);
    const text = harText(recorder.entries);
    for (const secret of [key, 'hunter2-secret', 'AKIAEXAMPLE', 'f00dfeed', basic(key)]) {
      expect(text).not.toContain(secret);
    }
    expect(recorder.entries[0]?._labelmock?.redacted).toEqual([
      'request.headers.authorization',
      'request.postData.text',
      'response.content.text',
    ]);
  });

  it('refuses to finish while a secret survives in a form it cannot rewrite, and writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'labelmock-record-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const target = await serveFetch(labelmockService(cleanups), cleanups);
    const recorder = await recorderFor(target, ['hunter2-secret']);
    const hidden = Buffer.from('hunter2-secret').toString('base64');
    await scenario(recorder.url, target, 'test_recorded', imageRequest({ metadata: { blob: hidden } }));
    const out = join(dir, 'out.har');
    const errors: string[] = [];
    const code = await finish(recorder, out, { stdout: () => {}, stderr: (text) => errors.push(text) });
    expect(code).toBe(1);
    expect(existsSync(out)).toBe(false);
    expect(errors[0]).toMatch(/^labelmock record: entry 0 \(POST http:\/\/127\.0\.0\.1:\d+\/v1\/task\/image/);
  });
});
