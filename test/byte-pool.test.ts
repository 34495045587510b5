import type { Server } from 'node:http';
import { IncomingMessage, ServerResponse } from 'node:http';
import { type AddressInfo, Socket } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../src/app.js';
import { JOURNAL_BODY_CHARS } from '../src/domain/journal/limits.js';
import { BytePool, MIN_POOLED_BYTES } from '../src/runtime/byte-pool.js';
import { basic, imageRequest } from './helpers.js';

describe('BytePool', () => {
  it('lends buffers within its sizes and hands a given-back one out again', () => {
    const pool = new BytePool();
    const small = pool.take(100);
    expect(small).toHaveLength(100);
    expect(pool.isLent(small)).toBe(false);
    const first = pool.take(20_000);
    expect(first).toHaveLength(20_000);
    expect(pool.isLent(first)).toBe(true);
    pool.giveBack(first);
    expect(pool.isLent(first)).toBe(false);
    const again = pool.take(30_000);
    expect(again.buffer).toBe(first.buffer);
    expect(again).toHaveLength(30_000);
  });

  it('takes a buffer back once: given back twice, it is still lent to one answer only', () => {
    const pool = new BytePool();
    const lent = pool.take(20_000);
    pool.giveBack(lent);
    pool.giveBack(lent);
    const a = pool.take(20_000);
    const b = pool.take(20_000);
    expect(a.buffer).not.toBe(b.buffer);
    // Never lent (too small): ignored, and not handed out later.
    const own = Buffer.allocUnsafe(20_000);
    pool.giveBack(own);
    expect(pool.take(20_000).buffer).not.toBe(own.buffer);
  });

  it('lends only answers past the request journal’s cap (the journal keeps copies of those, never them)', () => {
    expect(MIN_POOLED_BYTES).toBeGreaterThan(JOURNAL_BODY_CHARS);
  });
});

describe('list pages over a socket, in lent buffers', () => {
  const KEY = 'test_pages';
  const app = createApp();
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = await new Promise<Server>((resolve) => {
      const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s as Server)) as Server;
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    for (let i = 0; i < 60; i += 1) {
      const body = JSON.stringify(imageRequest({ metadata: { i }, tags: [`t${i % 3}`] }));
      const headers = { authorization: basic(KEY), 'content-type': 'application/json' };
      const res = await fetch(`${base}/v1/task/imageannotation`, { method: 'POST', headers, body });
      expect(res.status).toBe(200);
    }
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
    app.dispose();
  });

  it('answers each of many concurrent pages whole and its own, as an unpooled answer would be', async () => {
    const queries = ['limit=60', 'limit=40&tags=t0', 'limit=50&offset=5', 'limit=30&tags=t1', 'limit=45'];
    const get = async (query: string) => {
      const res = await fetch(`${base}/v1/tasks?${query}`, { headers: { authorization: basic(KEY) } });
      return res.text();
    };
    const expected = new Map<string, string>();
    for (const query of queries) expected.set(query, await get(query));
    expect(Math.min(...[...expected.values()].map((text) => text.length))).toBeGreaterThan(MIN_POOLED_BYTES);
    for (let round = 0; round < 5; round += 1) {
      const order = Array.from({ length: 40 }, (_, i) => queries[(i * 7 + round) % queries.length] ?? '');
      const answers = await Promise.all(order.map(get));
      const wrong = answers.filter((text, i) => text !== expected.get(order[i] ?? '')).length;
      expect(wrong).toBe(0);
    }
  });

  it('takes a page’s buffer back only once the Node response has written it all (finish)', async () => {
    const giveBack = vi.spyOn(app.services.pages, 'giveBack');
    const incoming = new IncomingMessage(new Socket());
    Object.assign(incoming, { method: 'GET', url: '/v1/tasks?limit=60', rawHeaders: ['host', 'x'] });
    const outgoing = new ServerResponse(incoming);
    const request = new Request(`${base}/v1/tasks?limit=60`, { headers: { authorization: basic(KEY) } });
    const answer = await app.fetch(request, { incoming, outgoing });
    const length = (await answer.arrayBuffer()).byteLength;
    expect(length).toBeGreaterThan(MIN_POOLED_BYTES);
    // A few turns of the event loop: nothing but `finish` may give the buffer back.
    for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(giveBack).not.toHaveBeenCalled();
    outgoing.emit('finish');
    expect(giveBack).toHaveBeenCalledTimes(1);
    expect(giveBack.mock.calls[0]?.[0].byteLength).toBe(length);
    giveBack.mockRestore();
  });

  it('keeps the journal’s copy of a lent page as it was after later pages reuse the buffer', async () => {
    const page = await fetch(`${base}/v1/tasks?limit=60`, { headers: { authorization: basic(KEY) } });
    const text = await page.text();
    for (let i = 0; i < 20; i += 1) {
      // Other tasks first: bytes of these in the buffer would show at the start of the kept copy.
      await (await fetch(`${base}/v1/tasks?limit=59&offset=1`, { headers: { authorization: basic(KEY) } })).text();
    }
    const journal = await fetch(`${base}/_mock/requests?limit=100`, { headers: { authorization: basic(KEY) } });
    const entries: { query: Record<string, string[]>; response_body: string }[] = (await journal.json()).requests;
    const first = entries.find((entry) => entry.query.limit?.[0] === '60' && entry.response_body.length > 0);
    expect(first?.response_body).toBe(text.slice(0, JOURNAL_BODY_CHARS));
  });
});
