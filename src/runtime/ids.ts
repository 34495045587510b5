import { createHash, randomFillSync } from 'node:crypto';

/** Produces the real service's id shape: 24 lowercase hex digits. */
export interface IdGenerator {
  next(): string;
}

const ID_BYTES = 12;
/** Random bytes for 1024 ids, drawn at once: a draw per id (randomBytes) cost ~2% of a task creation. */
const pool = Buffer.allocUnsafeSlow(ID_BYTES * 1024);
let used = pool.length;

/** Random ids, as the server uses: unguessable, so one tenant cannot probe another's ids. */
export const randomIds: IdGenerator = {
  next: () => {
    if (used === pool.length) {
      randomFillSync(pool);
      used = 0;
    }
    used += ID_BYTES;
    return pool.toString('hex', used - ID_BYTES, used);
  },
};

/** Ids <prefix>00...1, <prefix>00...2, ...: for tests and fixtures that want predictable ids. */
export function sequentialIds(prefix = ''): IdGenerator {
  let n = 0;
  return {
    next: () => {
      n += 1;
      return (prefix + n.toString(16).padStart(24 - prefix.length, '0')).slice(-24);
    },
  };
}

/** Stable ids for what the mock derives rather than stores (the account owner, Studio batches and projects). */
export const derivedId = (...parts: string[]): string =>
  createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 24);
