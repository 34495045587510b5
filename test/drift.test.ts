import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { HarEntry } from '../src/domain/har/schema.js';
import { templateFinder } from '../src/http/self-check/answer-check.js';
import { labelmockDocuments } from '../src/tools/documents.js';
import { readRecording } from '../src/tools/drift/exchanges.js';
import { inProcessTarget, replay } from '../src/tools/drift/replay.js';
import { pretty, summarize } from '../src/tools/drift/report.js';
import { harText } from '../src/tools/record/main.js';
import { startRecorder } from '../src/tools/record/recorder.js';
import { basic, createImageTask, makeApp } from './helpers.js';
import {
  cleanupsAfterEach,
  DIFFERENCES,
  differentService,
  labelmockService,
  scenario,
  serveFetch,
} from './recording-targets.js';

const cleanups = cleanupsAfterEach();

const templateOf = templateFinder(await labelmockDocuments());

/** The scenario recorded through `labelmock record` against `service`, as the HAR text it writes. */
async function recorded(service: 'different' | 'labelmock'): Promise<string> {
  const handler = service === 'different' ? differentService(cleanups) : labelmockService(cleanups);
  const target = await serveFetch(handler, cleanups);
  const recorder = await startRecorder({ target, port: 0, host: '127.0.0.1', redact: [] });
  await scenario(recorder.url, target, 'test_recorded');
  await recorder.stop();
  return harText(recorder.entries);
}

async function driftOf(text: string, accepted: Set<string> = new Set()) {
  const target = inProcessTarget();
  cleanups.push(() => target.close());
  return summarize(await replay(readRecording(text), target, templateOf), accepted);
}

const signatures = (summary: Awaited<ReturnType<typeof driftOf>>) =>
  summary.operations.flatMap((operation) => operation.drift.map((drift) => drift.signature));

/** What the different service's five differences look like from labelmock's side, on each task answer. */
const TASK_DRIFT = [
  `type ${DIFFERENCES.retyped}`,
  `extra ${DIFFERENCES.dropped}`,
  'value status',
  `missing ${DIFFERENCES.extra}`,
];

describe('labelmock drift', () => {
  it('finds exactly the five differences of a service made to differ, and nothing else', async () => {
    const summary = await driftOf(await recorded('different'));
    expect(summary.exchanges).toBe(5);
    expect(signatures(summary).sort()).toEqual(
      [
        ...TASK_DRIFT.map((drift) => `POST /v1/task/imageannotation ${drift}`),
        ...TASK_DRIFT.map((drift) => `GET /v1/task/{taskId} ${drift}`),
        `${DIFFERENCES.throttled} status (answer)`,
      ].sort(),
    );
    expect(summary.new).toBe(9);
    const status = summary.operations[0]?.drift.find((drift) => drift.path === 'status');
    expect(status?.example).toEqual({ index: 0, recorded: '"queued"', labelmock: '"pending"' });
    // docs/recording.md shows this very report.
    const docs = readFileSync(new URL('../docs/recording.md', import.meta.url), 'utf8');
    expect(docs).toContain(`\`\`\`\n${pretty(summary)}\`\`\``);
  });

  it("labelmock's own recording drifts by nothing: ids map, times match by type, completion is driven", async () => {
    const summary = await driftOf(await recorded('labelmock'));
    expect(summary.operations.map((operation) => [operation.operation, operation.drift])).toEqual([
      ['POST /v1/task/imageannotation', []],
      ['GET /v1/task/{taskId}', []],
      ['GET /v1/tasks', []],
    ]);
  });

  it("labelmock's own 401s drift by nothing: replayed without credentials or with a refused key", async () => {
    const target = await serveFetch(labelmockService(cleanups), cleanups);
    const recorder = await startRecorder({ target, port: 0, host: '127.0.0.1', redact: [] });
    await scenario(recorder.url, target, 'test_recorded');
    await fetch(`${recorder.url}/v1/tasks`);
    await fetch(`${recorder.url}/v1/tasks`, { headers: { authorization: basic('no such key') } });
    await recorder.stop();
    const text = harText(recorder.entries);
    expect(
      JSON.parse(text)
        .log.entries.slice(-2)
        .map((e: HarEntry) => e.response.status),
    ).toEqual([401, 401]);
    const summary = await driftOf(text);
    expect(summary.operations.flatMap((operation) => operation.drift)).toEqual([]);
    expect(summary.exchanges).toBe(7);
  });

  it('a baseline accepts known drift: only drift it does not list is new', async () => {
    const text = await recorded('different');
    const known = new Set(signatures(await driftOf(text)).filter((s) => !s.includes('status (answer)')));
    const summary = await driftOf(text, known);
    expect(summary.new).toBe(1);
    expect(summary.operations.flatMap((o) => o.drift.filter((d) => !d.accepted).map((d) => d.signature))).toEqual([
      `${DIFFERENCES.throttled} status (answer)`,
    ]);
  });

  it('reads vcrpy and Ruby VCR cassettes as it reads HAR: the same drift', async () => {
    const text = await recorded('different');
    const entries = JSON.parse(text).log.entries as HarEntry[];
    const vcrpy = entries.map(({ request, response }) => ({
      request: { method: request.method, uri: request.url, body: request.postData?.text ?? null, headers: {} },
      response: { status: { code: response.status, message: '' }, body: { string: response.content.text ?? '' } },
    }));
    const ruby = entries.map(({ request, response }) => ({
      request: {
        method: request.method.toLowerCase(),
        uri: request.url,
        body: { string: request.postData?.text ?? '' },
      },
      // As the Ruby gem's cassettes have them: an empty http_version, the time recorded, ASCII-8BIT bodies.
      response: {
        status: { code: response.status, message: response.statusText },
        body: { encoding: 'ASCII-8BIT', string: response.content.text ?? '' },
        http_version: null,
      },
      recorded_at: 'Sun, 10 Mar 2019 08:58:56 GMT',
    }));
    const { stringify } = await import('yaml');
    const expected = signatures(await driftOf(text)).sort();
    expect(signatures(await driftOf(stringify({ interactions: vcrpy, version: 1 }))).sort()).toEqual(expected);
    expect(
      signatures(await driftOf(stringify({ http_interactions: ruby, recorded_with: 'VCR 4.0.0' }))).sort(),
    ).toEqual(expected);
  });

  it("replays labelmock's own journal (GET /_mock/requests?format=har) with no drift", async () => {
    const t = makeApp();
    const task = await createImageTask(t);
    await t.call('GET', `/v1/task/${task.task_id}`);
    await t.call('GET', '/v1/tasks?limit=3');
    const har = await t.call('GET', '/_mock/requests?format=har');
    const summary = await driftOf(JSON.stringify(har.body));
    expect([summary.exchanges, summary.new]).toEqual([3, 0]);
  });
});
