import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SHARD_KEEP_ALIVE_MS, serveAsShard } from '../src/http/shard.js';

/** What `--shard-id` does to the bin's server (the bin's answers themselves: test/cli.test.ts, test/cluster/). */

describe('a shard (--shard-id)', () => {
  it('keeps idle connections longer than the shipped nginx router keeps them, and its headers timeout above', () => {
    const server = Object.assign(new EventEmitter(), { keepAliveTimeout: 5000, headersTimeout: 60_000 });
    serveAsShard(server, 'shard-4');
    const nginx = readFileSync(new URL('../deploy/nginx/labelmock.conf', import.meta.url), 'utf8');
    const upstreamIdle = /^\s+keepalive_timeout (\d+)s;/m.exec(nginx)?.[1];
    expect(Number(upstreamIdle) * 1000).toBeLessThan(SHARD_KEEP_ALIVE_MS);
    expect(server.keepAliveTimeout).toBe(SHARD_KEEP_ALIVE_MS);
    expect(server.headersTimeout).toBeGreaterThan(server.keepAliveTimeout);
    const headers = new Map<string, string>();
    server.emit('request', {}, { setHeader: (name: string, value: string) => headers.set(name, value) });
    expect(Object.fromEntries(headers)).toEqual({ 'Labelmock-Shard': 'shard-4' });
  });
});
