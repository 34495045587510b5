import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LogFormat } from '../src/config/index.js';
import { jsonLine, prettyLine } from '../src/http/request-log.js';
import { accountFingerprint } from '../src/runtime/fingerprint.js';
import { createImageTask, makeApp, present } from './helpers.js';

/** The first line of a request log, parsed. */
const firstEntry = (lines: string[]) => JSON.parse(present(lines[0], 'the first log line'));

/** An app whose request log lines land in an array. */
function loggedApp(log: LogFormat) {
  const lines: string[] = [];
  const t = makeApp({ config: { log }, logSink: (line) => lines.push(line) });
  return { ...t, lines };
}

describe('request log', () => {
  it('GET /v1/tasks logs one json line: time, method, path without query, status, ms, tenant', async () => {
    const t = loggedApp('json');
    const res = await t.call('GET', '/v1/tasks?limit=5');
    expect(res.status).toBe(200);
    expect(t.lines).toHaveLength(1);
    const entry = firstEntry(t.lines);
    // pino's line: its level first (30: info), so pino's tools read it, then the request's fields.
    expect(Object.keys(entry)).toEqual(['level', 'time', 'method', 'path', 'status', 'ms', 'tenant']);
    expect(entry.level).toBe(30);
    expect(entry).toMatchObject({
      time: '2026-01-01T00:00:00.000Z',
      method: 'GET',
      path: '/v1/tasks',
      status: 200,
      tenant: accountFingerprint('test', 'acme'),
    });
    expect(entry.tenant).toMatch(/^test:[0-9a-f]{10}$/);
    expect(entry.ms).toBeGreaterThanOrEqual(0);
  });

  it('GET /v1/tasks with a bad key logs the 401 with tenant - and never the key', async () => {
    const t = loggedApp('json');
    const res = await t.call('GET', '/v1/tasks', { key: 'not-a-key-s3cret' });
    expect(res.status).toBe(401);
    expect(firstEntry(t.lines)).toMatchObject({ path: '/v1/tasks', status: 401, tenant: '-' });
    expect(t.lines.join('\n')).not.toContain('s3cret');
  });

  it('POST /v1/task/imageannotation logs a live tenant by a fingerprint, never its key nor account', async () => {
    const t = loggedApp('json');
    await createImageTask(t, {}, 'live_9f3a1c2e77');
    const tenant = accountFingerprint('live', '9f3a1c2e77');
    expect(firstEntry(t.lines)).toMatchObject({ method: 'POST', status: 200, tenant });
    expect(t.lines[0]).not.toContain('9f3a1c2e77');
  });

  it('GET /v1/task/{id} of an unknown task logs the 404 the error handler answered', async () => {
    const t = loggedApp('json');
    expect((await t.call('GET', '/v1/task/nope')).status).toBe(404);
    const tenant = accountFingerprint('test', 'acme');
    expect(firstEntry(t.lines)).toMatchObject({ path: '/v1/task/nope', status: 404, tenant });
  });

  it('GET /v1/tasks logs one pretty line: time, method, path, status, duration, tenant', async () => {
    const t = loggedApp('pretty');
    await t.call('GET', '/v1/tasks?limit=5');
    expect(t.lines).toHaveLength(1);
    expect(t.lines[0]).toMatch(/^00:00:00\.000 GET {4}\/v1\/tasks {20}200 +\d+\.\d ms {2}test:[0-9a-f]{10}$/);
  });

  it('a path with CR LF, ESC or a bidi override logs one pretty line, them written out, never acted on', async () => {
    const t = loggedApp('pretty');
    await t.call('GET', '/v1/task/x%0D%0A00:00:00.000%20GET%20/forged%20200%1B[31m%E2%80%AEz');
    expect(t.lines).toHaveLength(1);
    const [line = ''] = t.lines;
    expect(line).toContain('/v1/task/x\\x0d\\x0a00:00:00.000 GET /forged 200\\x1b[31m\\u202ez');
    expect(line.split('\n').filter(Boolean)).toHaveLength(1);
    const raw = [...line].filter((char) => char.charCodeAt(0) < 0x20 || char === '\u202e');
    expect(raw).toEqual([]);
  });

  it('GET /v1/tasks logs nothing with log off, the default of createApp', async () => {
    const off = loggedApp('off');
    await off.call('GET', '/v1/tasks');
    expect(off.lines).toEqual([]);
    const lines: string[] = [];
    const byDefault = makeApp({ logSink: (line) => lines.push(line) });
    expect((await byDefault.call('GET', '/v1/tasks')).status).toBe(200);
    expect(lines).toEqual([]);
  });

  it('pretty lines keep their columns aligned across methods, statuses and durations', () => {
    const base = { time: '2026-01-01T12:00:01.250Z', path: '/v1/tasks', tenant: 'test:acme' };
    const a = prettyLine({ ...base, method: 'GET', status: 200, ms: 3.14 });
    const b = prettyLine({ ...base, method: 'DELETE', status: 404, ms: 1234.5 });
    expect(a).toBe('12:00:01.250 GET    /v1/tasks                    200    3.1 ms  test:acme');
    expect(b).toBe('12:00:01.250 DELETE /v1/tasks                    404 1234.5 ms  test:acme');
  });

  it('a json line is the entry as JSON after pino’s level, whatever characters its path and method hold', () => {
    const entry = fc.record({
      time: fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
      method: fc.string(),
      path: fc.string({ unit: 'binary' }),
      status: fc.integer({ min: 100, max: 599 }),
      ms: fc.double({ min: 0, max: 1e6, noNaN: true }).map((ms) => Math.round(ms * 10) / 10),
      tenant: fc.string(),
    });
    fc.assert(
      fc.property(entry, (e) => {
        expect(jsonLine(e)).toBe(`{"level":30,${JSON.stringify(e).slice(1)}\n`);
      }),
    );
  });
});
