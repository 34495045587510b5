import { createHash } from 'node:crypto';

/**
 * The v2 id of a project or batch: 24 hex digits (like a task id) derived from what names it uniquely,
 * its kind, account and name. Derived, not drawn, so it is the same after a restart, an export and
 * import, or a reset and re-create, with nothing more to store; the account keeps it from being guessed
 * across keys.
 */
export const objectIdOf = (kind: 'project' | 'batch', account: string, name: string): string =>
  createHash('sha256').update(`${kind}\u0000${account}\u0000${name}`).digest('hex').slice(0, 24);
