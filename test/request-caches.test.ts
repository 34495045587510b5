import type { Context } from 'hono';
import type { Result } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CachedRouter } from '../src/http/cached-router.js';
import { queryInt, queryList } from '../src/http/query.js';
import { queryParser } from '../src/http/query-parser.js';
import { basic, makeApp } from './helpers.js';

const ROUTES: [string, string][] = [
  ['ALL', '*'],
  ['ALL', '/v1/*'],
  ['GET', '/v1/task/:taskId'],
  ['POST', '/v1/task/imageannotation'],
  ['POST', '/v1/task/:taskId/cancel'],
  ['GET', '/v1/tasks'],
];
const PATHS: [string, string][] = [
  ['GET', '/v1/task/abc'],
  ['POST', '/v1/task/imageannotation'],
  ['POST', '/v1/task/abc/cancel'],
  ['GET', '/v1/tasks'],
  ['GET', '/nothing/here'],
  ['PUT', '/v1/tasks'],
];

/** A match as plain data: each handler with its params (handlers are their route's index). */
const plain = <T>(result: Result<T>) => result[0].map(([h, params]) => [h, { ...params }]);

describe('CachedRouter', () => {
  it("matches every method and path as Hono's TrieRouter does, the first time and when kept", () => {
    const cached = new CachedRouter<number>();
    const trie = new TrieRouter<number>();
    ROUTES.forEach(([method, path], i) => {
      cached.add(method, path, i);
      trie.add(method, path, i);
    });
    for (const [method, path] of [...PATHS, ...PATHS]) {
      expect(plain(cached.match(method, path))).toEqual(plain(trie.match(method, path)));
    }
    // Kept: the second match of a path is the very result of the first.
    expect(cached.match('GET', '/v1/tasks')).toBe(cached.match('GET', '/v1/tasks'));
  });

  it('forgets what it kept when a route is added, so the new route is matched', () => {
    const router = new CachedRouter<string>();
    router.add('ALL', '*', 'all');
    expect(plain(router.match('GET', '/late'))).toEqual([['all', {}]]);
    router.add('GET', '/late', 'late');
    expect(plain(router.match('GET', '/late'))).toEqual([
      ['all', {}],
      ['late', {}],
    ]);
  });

  it('stays right past its bound, and keeps no path longer than its cap', () => {
    const router = new CachedRouter<string>();
    router.add('GET', '/v1/task/:taskId', 'task');
    for (let i = 0; i < 3000; i += 1) {
      expect(plain(router.match('GET', `/v1/task/t${i}`))).toEqual([['task', { taskId: `t${i}` }]]);
    }
    const long = `/v1/task/${'x'.repeat(300)}`;
    expect(router.match('GET', long)).not.toBe(router.match('GET', long));
  });
});

/** The part of a Context the parser reads. */
const contextOf = (query: string) => {
  const url = new URL(`http://localhost/v1/tasks${query}`);
  return {
    req: {
      url: url.href,
      queries: () => {
        const all: Record<string, string[]> = {};
        for (const [key, value] of url.searchParams) all[key] = [...(all[key] ?? []), value];
        return all;
      },
    },
  } as unknown as Context;
};

describe('queryParser', () => {
  const schema = z.object({ limit: queryInt(1, 100).optional(), tags: queryList.optional() }).strict();

  it("keeps a valid query's parse, frozen, for the next request with the same text", () => {
    const parse = queryParser(schema);
    const first = parse(contextOf('?limit=5&tags=a,b'));
    expect(first).toEqual({ limit: 5, tags: ['a', 'b'] });
    expect(parse(contextOf('?limit=5&tags=a,b'))).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.tags)).toBe(true);
    expect(parse(contextOf('?limit=6'))).toEqual({ limit: 6 });
    expect(parse(contextOf(''))).toEqual({});
  });

  it('parses a failing query again each time, and a long one without keeping it', () => {
    const parse = queryParser(schema);
    for (let i = 0; i < 2; i += 1) expect(() => parse(contextOf('?limit=500'))).toThrow(/limit/);
    const long = `?tags=${'a'.repeat(600)}`;
    expect(parse(contextOf(long))).not.toBe(parse(contextOf(long)));
  });
});

describe('kept queries over HTTP', () => {
  it('a repeated list query answers what the store holds now, not what it held the first time', async () => {
    const t = makeApp();
    const first = await t.call('GET', '/v1/tasks?limit=10&status=pending');
    expect(first.status).toBe(200);
    expect(first.body.docs).toEqual([]);
    await t.call('POST', '/v1/task/imageannotation', {
      body: { attachment: 'https://example.com/a.jpg', geometries: { box: { objects_to_annotate: ['car'] } } },
    });
    const second = await t.call('GET', '/v1/tasks?limit=10&status=pending');
    expect(second.body.docs).toHaveLength(1);
    const bad = await t.call('GET', '/v1/tasks?limit=0');
    expect(bad.status).toBe(400);
    expect((await t.call('GET', '/v1/tasks?limit=0')).body).toEqual(bad.body);
  });
});

describe('kept principals over HTTP', () => {
  it('each Authorization text keeps its own tenant, in any order or form; a bad one is refused each time', async () => {
    const t = makeApp();
    const body = { attachment: 'https://example.com/a.jpg', geometries: { box: { objects_to_annotate: ['car'] } } };
    await t.call('POST', '/v1/task/imageannotation', { key: 'test_one', body });
    const count = async (headers: Record<string, string>) =>
      (await t.call('GET', '/v1/tasks', { key: null, headers })).body.docs?.length;
    for (let round = 0; round < 2; round += 1) {
      expect(await count({ authorization: basic('test_one') })).toBe(1);
      expect(await count({ authorization: basic('test_two') })).toBe(0);
      expect(await count({ authorization: 'Bearer test_one' })).toBe(1);
      expect((await t.call('GET', '/v1/tasks', { key: 'not a key' })).status).toBe(401);
    }
  });
});
