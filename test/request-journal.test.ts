import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { JOURNAL_BODY_CHARS, JOURNAL_ENTRY_MAX_BYTES } from '../src/domain/journal/limits.js';
import { formOf, upload } from './file-helpers.js';
import { basic, createImageTask, imageRequest, KEY, makeApp, readInPieces, type TestApp } from './helpers.js';

const requests = async (t: TestApp, query = '', key = KEY) => {
  const res = await t.call('GET', `/_mock/requests${query}`, { key });
  expect(res.status).toBe(200);
  return res.body.requests as any[];
};

/** A tenant that holds something (a setting), so even its reads are journaled. */
const holdTenant = (t: TestApp, key = KEY) =>
  t.call('PATCH', '/_mock/settings', { key, body: { completion: { mode: 'immediate' } } });

describe('request journal', () => {
  it('GET /_mock/requests answers a task creation with body, status, answer, headers without credentials', async () => {
    const t = makeApp();
    const task = await createImageTask(t);
    const [entry, ...rest] = await requests(t);
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      id: 'req_1',
      method: 'POST',
      path: '/v1/task/imageannotation',
      query: {},
      body: imageRequest(),
      status: 200,
      response_body: { task_id: task.task_id, status: 'pending' },
      truncated: false,
    });
    expect(entry.time).toBe(new Date(t.clock.now()).toISOString());
    expect(entry.duration_ms).toBeGreaterThanOrEqual(0);
    expect(entry.headers['content-type']).toBe('application/json');
    expect(entry.headers).not.toHaveProperty('authorization');
    expect(entry).not.toHaveProperty('fault');
  });

  it('GET /_mock/requests lists newest first and drops cookies', async () => {
    const t = makeApp();
    await holdTenant(t);
    await t.call('GET', '/v1/tasks?limit=5&tags=a&tags=b', { headers: { cookie: 'session=secret' } });
    await t.call('GET', '/v1/task/nope');
    const [second, first] = await requests(t);
    expect(second).toMatchObject({ id: 'req_2', path: '/v1/task/nope', status: 404, body: null });
    expect(second.response_body).toMatchObject({ status_code: 404 });
    expect(first).toMatchObject({ id: 'req_1', query: { limit: ['5'], tags: ['a', 'b'] }, status: 200 });
    expect(first.headers).not.toHaveProperty('cookie');
  });

  it('GET /v1/tasks by a new key is not journaled and leaves no tenant', async () => {
    const t = makeApp();
    expect((await t.call('GET', '/v1/tasks', { key: 'test_reader' })).status).toBe(200);
    expect(t.app.services.store.tenantCount).toBe(0);
    expect(await requests(t, '', 'test_reader')).toEqual([]);
  });

  it('GET /v1/<unknown route> is journaled for a held tenant, and allocates none for a new key', async () => {
    const t = makeApp();
    await holdTenant(t);
    expect((await t.call('POST', '/nowhere?x=1', { body: { a: 1 } })).status).toBe(404);
    expect((await t.call('DELETE', '/v1/tasks')).status).toBe(405);
    expect((await t.call('GET', '/elsewhere', { key: 'test_spammer' })).status).toBe(404);
    expect(t.app.services.store.tenantCount).toBe(1);
    const [notAllowed, unknown] = await requests(t);
    expect(unknown).toMatchObject({
      method: 'POST',
      path: '/nowhere',
      query: { x: ['1'] },
      body: { a: 1 },
      status: 404,
    });
    expect(notAllowed).toMatchObject({ method: 'DELETE', path: '/v1/tasks', status: 405 });
  });

  it('GET /_mock/requests does not journal /_mock calls, nor requests without a valid key', async () => {
    const t = makeApp();
    await holdTenant(t);
    await t.call('GET', '/_mock/clock');
    await t.call('GET', '/v1/tasks', { key: null });
    await t.call('GET', '/nowhere', { key: 'not-a-key' });
    expect(await requests(t)).toEqual([]);
  });

  it('GET /_mock/requests filters by method, path glob, status, since and limit', async () => {
    const t = makeApp();
    const task = await createImageTask(t);
    await t.call('GET', `/v1/task/${task.task_id}`);
    await t.call('GET', '/v1/task/missing');
    await t.call('GET', '/v1/tasks');
    const ids = (list: any[]) => list.map((entry) => entry.id);
    expect(ids(await requests(t, '?method=get'))).toEqual(['req_4', 'req_3', 'req_2']);
    expect(ids(await requests(t, '?path=/v1/task/*'))).toEqual(['req_3', 'req_2', 'req_1']);
    expect(ids(await requests(t, '?path=/v1/**'))).toHaveLength(4);
    expect(ids(await requests(t, '?path=/v1/tasks'))).toEqual(['req_4']);
    expect(ids(await requests(t, '?status=404'))).toEqual(['req_3']);
    expect(ids(await requests(t, '?since=req_2'))).toEqual(['req_4', 'req_3']);
    expect(ids(await requests(t, '?limit=1'))).toEqual(['req_4']);
  });

  it('GET /_mock/requests filters by task_id (path or answer names it) and pages back with before', async () => {
    const t = makeApp();
    const a = await createImageTask(t);
    const b = await createImageTask(t);
    await t.call('GET', `/v1/task/${a.task_id}`);
    await t.call('POST', `/v1/task/${b.task_id}/cancel`);
    const ids = (list: any[]) => list.map((entry) => entry.id);
    expect(ids(await requests(t, `?task_id=${a.task_id}`))).toEqual(['req_3', 'req_1']);
    expect(ids(await requests(t, `?task_id=${b.task_id}`))).toEqual(['req_4', 'req_2']);
    expect(ids(await requests(t, '?before=req_3'))).toEqual(['req_2', 'req_1']);
    expect(ids(await requests(t, '?before=req_4&limit=1'))).toEqual(['req_3']);
    const glob = await t.call('GET', '/_mock/requests?path=/v1/task**');
    expect([glob.status, glob.body.error]).toEqual([400, expect.stringContaining('"path" may use ** only as a whole')]);
  });

  it('GET /_mock/requests of hundreds of 16 KiB entries is written in pieces, others answered between', async () => {
    const t = makeApp();
    const big = { ...imageRequest(), metadata: { note: 'x'.repeat(JOURNAL_BODY_CHARS) } };
    for (let i = 0; i < 200; i += 1) await t.call('POST', '/v1/task/imageannotation', { body: big });
    const res = await t.app.request('/_mock/requests', { headers: { authorization: basic(KEY) } });
    expect(res.status).toBe(200);
    const other = async () => (await t.call('GET', '/v1/tasks', { key: 'test_other' })).status;
    const { text, pieces, answered } = await readInPieces(res, other);
    expect(pieces).toBeGreaterThan(2);
    expect(answered).toBe(200);
    const parsed = JSON.parse(text) as { requests: { id: string }[] };
    expect(parsed.requests.map((entry) => entry.id)).toEqual(Array.from({ length: 200 }, (_, i) => `req_${200 - i}`));
  });

  it('GET /_mock/requests with a malformed since or limit answers 400', async () => {
    const t = makeApp();
    const since = await t.call('GET', '/_mock/requests?since=yesterday');
    expect(since.status).toBe(400);
    expect(since.body.error).toContain('since');
    expect((await t.call('GET', '/_mock/requests?limit=0')).status).toBe(400);
    expect((await t.call('GET', '/_mock/requests?limit=1001')).status).toBe(400);
  });

  it('GET /_mock/requests keeps the last --journal-size entries', async () => {
    const t = makeApp({ config: { journalSize: 3 } });
    await holdTenant(t);
    for (let i = 0; i < 5; i += 1) await t.call('GET', `/v1/task/t${i}`);
    expect((await requests(t)).map((entry) => entry.path)).toEqual(['/v1/task/t4', '/v1/task/t3', '/v1/task/t2']);
  });

  it('GET /_mock/requests is always empty with --journal-size 0', async () => {
    const t = makeApp({ config: { journalSize: 0 } });
    await createImageTask(t);
    expect(await requests(t)).toEqual([]);
  });

  it('GET /_mock/requests cuts a long body and answers its text with truncated', async () => {
    const t = makeApp();
    await holdTenant(t);
    const long = { metadata: 'x'.repeat(JOURNAL_BODY_CHARS * 2) };
    await t.call('POST', '/v1/task/imageannotation', { body: { ...imageRequest(), ...long } });
    const [entry] = await requests(t);
    expect(entry.truncated).toBe(true);
    expect(typeof entry.body).toBe('string');
    expect(entry.body).toHaveLength(JOURNAL_BODY_CHARS);
    expect(JSON.stringify(entry).length).toBeLessThan(JOURNAL_ENTRY_MAX_BYTES);
  });

  it('GET /_mock/requests keeps each long answer as its own, while the ring reuses the copies it drops', async () => {
    const t = makeApp({ config: { journalSize: 2 } });
    const ids: string[] = [];
    for (const letter of ['a', 'b', 'c', 'd']) {
      const body = { ...imageRequest(), metadata: { note: letter.repeat(JOURNAL_BODY_CHARS) } };
      ids.push((await t.call('POST', '/v1/task/imageannotation', { body })).body.task_id);
    }
    const answers: string[] = [];
    for (const id of ids) answers.push(JSON.stringify((await t.call('GET', `/v1/task/${id}`)).body));
    // Newest first: the reads of d and of c; each entry's text is that request's answer, cut.
    const entries = await requests(t);
    expect(entries.every((entry) => entry.truncated)).toBe(true);
    const kept: string[] = entries.map((entry) => entry.response_body);
    const expected = [answers[3], answers[2]].map((text) => text?.slice(0, JOURNAL_BODY_CHARS));
    expect(kept.map((text) => text.slice(-40))).toEqual(expected.map((text) => text?.slice(-40)));
    expect(kept).toEqual(expected);
  });

  it('GET /_mock/requests keeps at most 64 headers and 64 query values, flagging the cut', async () => {
    const t = makeApp();
    await holdTenant(t);
    const headers = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`x-h${i}`, 'v']));
    const query = Array.from({ length: 80 }, (_, i) => `q${i}=v`).join('&');
    await t.call('GET', `/v1/tasks?${query}`, { headers });
    const [entry] = await requests(t);
    expect(entry.truncated).toBe(true);
    expect(Object.keys(entry.headers).length).toBeLessThanOrEqual(64);
    expect(Object.keys(entry.query)).toHaveLength(64);
  });

  it('GET /_mock/requests gives each entry its own query when query texts repeat, cut ones included', async () => {
    const t = makeApp();
    await holdTenant(t);
    const long = Array.from({ length: 80 }, (_, i) => `q${i}=v`).join('&');
    for (const query of ['limit=5&tags=a', 'limit=6', long, 'limit=5&tags=a', long, 'limit=6']) {
      await t.call('GET', `/v1/tasks?${query}`);
    }
    const entries = (await requests(t)).reverse().slice(-6);
    const seen = entries.map((entry) => (entry.truncated ? Object.keys(entry.query).length : entry.query));
    expect(seen).toEqual([
      { limit: ['5'], tags: ['a'] },
      { limit: ['6'] },
      64,
      { limit: ['5'], tags: ['a'] },
      64,
      { limit: ['6'] },
    ]);
  });

  it('GET /_mock/requests shows a multipart upload as part names and sizes, never bytes', async () => {
    const t = makeApp();
    await holdTenant(t);
    const res = await upload(t, formOf({ display_name: 'note' }, { filename: 'a.txt', content: 'hello world' }));
    expect(res.status).toBe(200);
    const [entry] = await requests(t);
    expect(entry.body).toBeNull();
    expect(entry.parts).toEqual(
      expect.arrayContaining([
        { name: 'display_name', bytes: 4 },
        { name: 'file', filename: 'a.txt', bytes: 11 },
      ]),
    );
    expect(JSON.stringify(entry)).not.toContain('hello world');
  });

  it('GET /_mock/requests records the fault a request got', async () => {
    const t = makeApp();
    await holdTenant(t);
    const res = await t.call('GET', '/v1/tasks', { headers: { 'labelmock-fault': 'status=503' } });
    expect(res.status).toBe(503);
    const [entry] = await requests(t);
    expect(entry).toMatchObject({ status: 503, fault: { status: 503 } });
    expect(entry.response_body).toMatchObject({ status_code: 503 });
  });

  it('DELETE /_mock/requests empties the journal; later ids keep growing', async () => {
    const t = makeApp();
    await holdTenant(t);
    await t.call('GET', '/v1/task/a');
    await t.call('GET', '/v1/task/b');
    const cleared = await t.call('DELETE', '/_mock/requests');
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual({ deleted: 2 });
    expect(await requests(t)).toEqual([]);
    await t.call('GET', '/v1/task/c');
    expect((await requests(t)).map((entry) => entry.id)).toEqual(['req_3']);
  });

  it('POST /_mock/reset empties the journal with the rest of the tenant', async () => {
    const t = makeApp();
    await createImageTask(t);
    expect((await t.call('POST', '/_mock/reset')).status).toBe(200);
    expect(await requests(t)).toEqual([]);
  });

  it('GET /_mock/requests: the journal goes with a tenant that holds nothing else', async () => {
    const t = makeApp();
    await holdTenant(t);
    await t.call('GET', '/v1/task/a');
    expect(await requests(t)).toHaveLength(1);
    await t.call('PATCH', '/_mock/settings', { body: { completion: { mode: 'manual' } } });
    expect(t.app.services.store.tenantCount).toBe(0);
    expect(await requests(t)).toEqual([]);
  });

  it('GET /_mock/requests of one tenant never shows another tenant', async () => {
    const t = makeApp();
    await createImageTask(t);
    await createImageTask(t, {}, 'test_other');
    const mine = await requests(t);
    expect(mine).toHaveLength(1);
    const raw = await t.app.request('/_mock/requests', { headers: { authorization: basic('test_other') } });
    expect(((await raw.json()) as any).requests).toHaveLength(1);
  });

  it('GET /_mock/requests over a socket shows the raw headers without credentials, names in lower case', async () => {
    const app = createApp();
    const server = await new Promise<Server>((resolve) => {
      const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s as Server)) as Server;
    });
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const auth = { authorization: basic(KEY) };
      await fetch(`${url}/_mock/settings`, {
        method: 'PATCH',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ completion: { mode: 'immediate' } }),
      });
      await fetch(`${url}/v1/tasks?limit=2`, { headers: { ...auth, Cookie: 'a=b', 'X-Trace': 'abc' } });
      const read = await fetch(`${url}/_mock/requests`, { headers: auth });
      const [entry] = ((await read.json()) as { requests: any[] }).requests;
      expect(entry).toMatchObject({ method: 'GET', path: '/v1/tasks', query: { limit: ['2'] }, status: 200 });
      expect(entry.headers['x-trace']).toBe('abc');
      expect(entry.headers).not.toHaveProperty('authorization');
      expect(entry.headers).not.toHaveProperty('cookie');
      expect(entry.response_body).toMatchObject({ docs: [] });
    } finally {
      server.closeAllConnections();
      server.close();
      app.dispose();
    }
  });
});
