import { z } from 'zod';

/**
 * A shard's name (--shard-id): what a router's configuration names the shard's server by, so it goes in a URL's
 * query as it is and in a header without quoting.
 */
export const ShardIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, 'must be 1-63 of [A-Za-z0-9_.-], starting with a letter or digit');
