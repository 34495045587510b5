/** What serveAsShard touches of a node:http Server (a test gives it a stand-in). */
interface ShardServer {
  prependListener(
    event: 'request',
    listener: (request: unknown, response: { setHeader(name: string, value: string): unknown }) => void,
  ): unknown;
  keepAliveTimeout: number;
  headersTimeout: number;
}

/** The header every answer of a shard carries: which process answered, as a router's user needs to know. */
const SHARD_HEADER = 'Labelmock-Shard';

/**
 * How long a shard keeps an idle connection: longer than its router keeps one idle (nginx's upstream
 * `keepalive_timeout 60s`, HAProxy's purge of idle server connections), so the router always closes first. With
 * Node's 5 s, a request the router sends on a connection the shard is closing that instant is lost: a 502, as the
 * routers fail closed and never retry it elsewhere.
 */
export const SHARD_KEEP_ALIVE_MS = 75_000;

/**
 * Marks every answer of `server` with the shard's name, and keeps its idle connections as a router expects. The
 * header is set on Node's response before Hono runs, so it reaches every answer (errors, streams, files, the
 * 404s of no route) and costs one header per request: no answer is rebuilt to add it.
 */
export function serveAsShard(server: ShardServer, shardId: string): void {
  server.prependListener('request', (_request, response) => response.setHeader(SHARD_HEADER, shardId));
  server.keepAliveTimeout = SHARD_KEEP_ALIVE_MS;
  // Node requires the headers' timeout above the idle one, or it closes a connection a request is arriving on.
  server.headersTimeout = SHARD_KEEP_ALIVE_MS + 1000;
}
