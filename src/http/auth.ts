import type { MiddlewareHandler } from 'hono';
import type { KeyEntry } from '../config/index.js';
import { type UnauthorizedCause, unauthorized } from '../errors/index.js';
import { accountFingerprint } from '../runtime/fingerprint.js';
import type { AppEnv, Principal } from './env.js';
import { Kept } from './kept.js';

const OPEN_PREFIXED = /^(test|live)_([A-Za-z0-9_-]{1,128})$/;
const OPEN_SUFFIXED = /^([A-Za-z0-9_-]{1,128})\|(test|live)$/;

/**
 * Reads the key from `Authorization`. The real service uses Basic with the key as user name;
 * `Bearer <key>` and a bare key are accepted as a documented leniency.
 */
export function extractKey(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  const [scheme = '', ...rest] = trimmed.split(/\s+/); // split always returns at least one part
  const value = rest.join(' ');
  if (/^basic$/i.test(scheme) && value) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon === -1 ? decoded : decoded.slice(0, colon);
  }
  if (/^bearer$/i.test(scheme) && value) return value;
  return rest.length === 0 ? trimmed : undefined;
}

/** Open mode: the key's shape names the account and the mode. */
function parseOpenKey(key: string): Principal | undefined {
  // Both groups of each pattern are required, so a match has them non-empty.
  const [, prefixMode, prefixAccount] = OPEN_PREFIXED.exec(key) ?? [];
  if (prefixMode && prefixAccount) return principalOf(key, prefixAccount, prefixMode as Principal['mode']);
  const [, suffixAccount, suffixMode] = OPEN_SUFFIXED.exec(key) ?? [];
  if (suffixAccount && suffixMode) return principalOf(key, suffixAccount, suffixMode as Principal['mode']);
  return undefined;
}

const principalOf = (key: string, account: string, mode: Principal['mode']): Principal => ({
  key,
  account,
  mode,
  fingerprint: accountFingerprint(mode, account),
});

export function createKeyResolver(strictKeys: KeyEntry[] | undefined): (key: string) => Principal | undefined {
  if (!strictKeys) return parseOpenKey;
  const byKey = new Map(strictKeys.map((entry) => [entry.key, principalOf(entry.key, entry.account, entry.mode)]));
  return (key) => byKey.get(key);
}

/** Authorization texts whose principal auth keeps (bounded: kept.ts); a client sends its one key again and again. */
const MAX_KEPT_KEYS = 1024;
const MAX_KEPT_KEY_CHARS = 512;

/**
 * Sets the request's principal, or refuses it with a 401. A header's principal depends on its text
 * alone, so it is kept by that text: a repeat skips the base64 decoding and the key's patterns.
 * Synchronous: a throw here still reaches Hono's error handling, and no async step is added.
 */
/** The header the web inspector marks its own calls with (inspector/api.mjs). */
const INSPECTOR_HEADER = 'x-labelmock-inspector';

/** Why a header gave no principal: none sent, one that names no key, or a key this server does not accept. */
function refusal(header: string, key: string | undefined, strict: boolean): UnauthorizedCause {
  if (header.trim() === '') return 'missing';
  if (key === undefined || key === '') return 'malformed';
  return strict ? 'unknown_strict' : 'unknown_open';
}

export function authMiddleware(
  resolve: (key: string) => Principal | undefined,
  /** Strict mode (a keys file): an unknown key is told to use one of the file's. */
  strict = false,
): MiddlewareHandler<AppEnv> {
  const kept = new Kept<Principal>(MAX_KEPT_KEYS, MAX_KEPT_KEY_CHARS);
  return (c, next) => {
    const header = c.req.header('authorization') ?? '';
    let principal = kept.get(header);
    if (!principal) {
      const key = extractKey(header);
      const resolved = key === undefined ? undefined : resolve(key);
      // The inspector's own calls get no Basic challenge: it shows the message itself, never a sign-in dialog.
      if (!resolved) throw unauthorized(refusal(header, key, strict), c.req.header(INSPECTOR_HEADER) === undefined);
      principal = kept.keep(header, Object.freeze(resolved));
    }
    c.set('principal', principal);
    return next();
  };
}
