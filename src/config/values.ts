import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { type CompletionSetting, CompletionSettingSchema, RateLimitSchema } from '../domain/settings.js';
import { type KeyEntry, KeysListSchema, KeysObjectSchema, LogFormatSchema } from './schema.js';

/**
 * How each setting is read from what a user wrote: a flag or environment string, or a JSON value
 * of a --config file. Every failure of one setting carries one message, the rule it breaks, which
 * the CLI prints after the setting's name: `--port must be an integer between 0 and 65535`.
 */

const WHOLE_NUMBER = /^\s*-?\d+\s*$/;

/** Whole numbers only: `Number('')` is 0 and `Number('1e3')` is 1000, neither what a user meant. */
export function integer(min: number, max = Number.MAX_SAFE_INTEGER) {
  const rule =
    max === Number.MAX_SAFE_INTEGER
      ? `must be an integer of at least ${min}`
      : `must be an integer between ${min} and ${max}`;
  return z.preprocess(
    (value) => (typeof value === 'string' && WHOLE_NUMBER.test(value) ? Number(value) : value),
    z.number({ invalid_type_error: rule, required_error: rule }).int(rule).min(min, rule).max(max, rule),
  );
}

const text = (rule: string) => z.string({ invalid_type_error: rule, required_error: rule });

export const hostValue = text('must be a host name or address').trim().min(1, 'must not be empty');

const LOG_RULE = 'must be pretty, json or off';
export const logValue = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
  z.enum(LogFormatSchema.options, { errorMap: () => ({ message: LOG_RULE }) }),
);

/** `manual`, `immediate`, `delay:<ms>` or `reads:<n>`; undefined for anything else. */
function parseCompletion(value: string): CompletionSetting | undefined {
  if (value === 'manual' || value === 'immediate') return { mode: value, delay_ms: 0 };
  const match = /^(delay|reads):(\d{1,9})$/.exec(value);
  if (!match) return undefined;
  const count = Number(match[2]);
  const setting =
    match[1] === 'delay' ? { mode: 'delay', delay_ms: count } : { mode: 'reads', delay_ms: 0, reads: count };
  const parsed = CompletionSettingSchema.safeParse(setting);
  return parsed.success ? parsed.data : undefined;
}

const COMPLETION_RULE =
  'must be manual, immediate, delay:<ms> (ms at most 86400000) or reads:<n> (the nth read completes, n 1-10000)';
export const completionValue = text(COMPLETION_RULE).transform((value, ctx) => {
  const setting = parseCompletion(value.trim());
  if (!setting) ctx.addIssue({ code: z.ZodIssueCode.custom, message: COMPLETION_RULE });
  return setting ?? z.NEVER;
});

/**
 * Browser origins as a browser sends them in `Origin`: scheme, host and port, nothing else. A
 * trailing slash or upper case is forgiven (the origin is rebuilt by URL); a path is not, since a
 * browser never sends one and the origin would never match.
 */
function origin(value: string): string | undefined {
  if (value === '*') return value;
  try {
    const url = new URL(value);
    const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
    return bare && (url.protocol === 'http:' || url.protocol === 'https:') ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

const CORS_RULE = 'must be * or a comma list of origins such as http://localhost:5173';
export const corsValue = z
  .union([z.string(), z.array(z.string())], { errorMap: () => ({ message: CORS_RULE }) })
  .transform((value, ctx) => {
    const items = (typeof value === 'string' ? value.split(',') : value).map((item) => item.trim()).filter(Boolean);
    const origins = items.map(origin);
    const valid = origins.every((item) => item !== undefined) && (!origins.includes('*') || origins.length === 1);
    if (!valid) ctx.addIssue({ code: z.ZodIssueCode.custom, message: CORS_RULE });
    return valid ? origins.filter((item) => item !== undefined) : z.NEVER;
  });

const HOSTS_RULE = 'must be a comma list of host names (mock.test, 10.0.0.5) or *';
const HOST_NAME =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])$/;

/** --allowed-hosts: names (no port, no scheme) a Host header may carry, lower case; `['*']` for any. */
export const allowedHostsValue = z
  .union([z.string(), z.array(z.string())], { errorMap: () => ({ message: HOSTS_RULE }) })
  .transform((value, ctx) => {
    const items = (typeof value === 'string' ? value.split(',') : value).map((item) => item.trim().toLowerCase());
    const names = items.filter(Boolean);
    const valid =
      names.every((name) => name === '*' || HOST_NAME.test(name)) && (!names.includes('*') || names.length === 1);
    if (!valid) ctx.addIssue({ code: z.ZodIssueCode.custom, message: HOSTS_RULE });
    return valid ? names : z.NEVER;
  });

/** Strict mode's keys file: `{"keys": [{key, account, mode}]}` or the bare array; a string says what is wrong. */
function readKeysFile(path: string): KeyEntry[] | string {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    if (err instanceof SyntaxError) return `names a keys file that is not JSON (${err.message})`;
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? 'names a keys file that does not exist'
      : `names a keys file that cannot be read (${code})`;
  }
  // Checked against the form it has, so a problem names the entry and field, not "Invalid input".
  const parsed = (Array.isArray(json) ? KeysListSchema : KeysObjectSchema).safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'the file'} ${issue.message}`);
    return `names a keys file with invalid entries: ${problems.join('; ')}`;
  }
  return Array.isArray(parsed.data) ? parsed.data : parsed.data.keys;
}

const KEYS_RULE = 'must be the path of a keys file';
export const keysValue = text(KEYS_RULE)
  .min(1, KEYS_RULE)
  .transform((path, ctx) => {
    const keys = readKeysFile(path);
    if (typeof keys !== 'string') return keys;
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: keys });
    return z.NEVER;
  });

const RATE_RULE = 'must be off or N/S: N requests per S seconds of the virtual clock (e.g. 100/60)';
/** --rate-limit: `N/S` (N requests per window of S seconds), or `off`; a --config file may give the object. */
export const rateLimitValue = z
  .union([z.string(), RateLimitSchema], { errorMap: () => ({ message: RATE_RULE }) })
  .transform((value, ctx) => {
    if (typeof value !== 'string') return value;
    if (value.trim().toLowerCase() === 'off') return null;
    const match = /^\s*(\d{1,7})\s*\/\s*(\d{1,5})\s*$/.exec(value);
    const parsed = RateLimitSchema.safeParse({ requests: Number(match?.[1]), per_seconds: Number(match?.[2]) });
    if (parsed.success) return parsed.data;
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: RATE_RULE });
    return z.NEVER;
  });

const SWITCH_RULE = 'must be true or false (1 or 0, yes or no)';
/** A bare switch (--tls): the flag reads as true; the environment or a --config file may say either. */
export const switchValue = z
  .union([z.boolean(), z.string()], { errorMap: () => ({ message: SWITCH_RULE }) })
  .transform((value, ctx) => {
    if (typeof value === 'boolean') return value;
    const word = value.trim().toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(word)) return true;
    if (['false', '0', 'no', 'off'].includes(word)) return false;
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: SWITCH_RULE });
    return z.NEVER;
  });
