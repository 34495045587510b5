import type { Server } from 'node:http';

/** The header every answer of a shard carries: which process answered, as a router's user needs to know. */
const SHARD_HEADER = 'Labelmock-Shard';

/**
 * Marks every answer of `server` with the shard's name. Set on Node's response before Hono runs, so it reaches
 * every answer (errors, streams, files, the 404s of no route) and costs one header per request: no answer is
 * rebuilt to add it.
 */
export function markAnswersWithShard(server: Pick<Server, 'prependListener'>, shardId: string): void {
  server.prependListener('request', (_request, response) => response.setHeader(SHARD_HEADER, shardId));
}
