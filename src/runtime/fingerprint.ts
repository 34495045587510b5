import { createHash } from 'node:crypto';

/**
 * What logs and warnings say of an account: its mode and a short hash of its name. In open mode the account
 * name is the key itself (`live_9f3a…` is account `9f3a…`), and a real key pasted by mistake must not land in
 * a CI log; the hash still tells one tenant's lines from another's.
 */
export function accountFingerprint(mode: string, account: string): string {
  return `${mode}:${createHash('sha256').update(account).digest('hex').slice(0, 10)}`;
}

/** The fingerprint of a tenant key (`<mode>:<account>`). */
export function tenantFingerprint(tenantKey: string): string {
  const colon = tenantKey.indexOf(':');
  return accountFingerprint(tenantKey.slice(0, colon), tenantKey.slice(colon + 1));
}
