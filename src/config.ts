import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { type CompletionSetting, CompletionSettingSchema } from './domain/settings.js';
import { DEFAULT_MAX_FILE_BYTES_PER_TENANT, DEFAULT_MAX_TENANTS } from './store/limits.js';

/** The one place that reads flags and environment variables. Everything is zod-validated. */

export { CompletionModeSchema, type CompletionSetting, CompletionSettingSchema } from './domain/settings.js';

export const KeyEntrySchema = z
  .object({
    key: z.string().min(1),
    account: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be 1-128 of [A-Za-z0-9_-]'),
    mode: z.enum(['test', 'live']),
  })
  .strict();
export type KeyEntry = z.infer<typeof KeyEntrySchema>;
export const KeysFileSchema = z.union([z.array(KeyEntrySchema), z.object({ keys: z.array(KeyEntrySchema) }).strict()]);

export const ConfigSchema = z.object({
  host: z.string().min(1),
  port: z.number().int().min(0).max(65535),
  completion: CompletionSettingSchema,
  /** Present in strict mode: the only keys accepted. Absent: open mode. */
  keys: z.array(KeyEntrySchema).optional(),
  /** Largest JSON body accepted, in bytes. */
  maxBodyBytes: z.number().int().positive(),
  /** Callback deliveries in flight at once, app-wide; the rest wait their turn. */
  maxCallbacksInFlight: z.number().int().min(1).max(10_000),
  /** Entries each tenant's callback journal keeps; the oldest finished ones leave first. */
  callbackJournalSize: z.number().int().min(1).max(1_000_000),
  /** On SIGTERM/SIGINT: how long in-flight requests may take before their connections are cut. */
  shutdownTimeoutMs: z.number().int().min(0).max(600_000),
  /** Tenants held at once; one more (a new key) is a 503. Tenants that hold nothing are not kept. */
  maxTenants: z.number().int().min(1).max(10_000_000),
  /** Uploaded file bytes one tenant may hold; an upload past it is a 413. */
  maxFileBytesPerTenant: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});
export type Config = z.infer<typeof ConfigSchema>;

export const defaultConfig: Config = {
  host: '127.0.0.1',
  port: 3000,
  completion: { mode: 'manual', delay_ms: 0 },
  maxBodyBytes: 5 * 1024 * 1024,
  maxCallbacksInFlight: 64,
  callbackJournalSize: 1000,
  shutdownTimeoutMs: 5000,
  maxTenants: DEFAULT_MAX_TENANTS,
  maxFileBytesPerTenant: DEFAULT_MAX_FILE_BYTES_PER_TENANT,
};

/** `manual`, `immediate` or `delay:<ms>`. */
export function parseCompletionFlag(value: string): CompletionSetting {
  if (value === 'manual' || value === 'immediate') return { mode: value, delay_ms: 0 };
  const match = /^delay:(\d+)$/.exec(value);
  if (match) return { mode: 'delay', delay_ms: Number(match[1]) };
  throw new Error(`--completion must be manual, immediate or delay:<ms> (got "${value}")`);
}

export function loadKeysFile(path: string): KeyEntry[] {
  const parsed = KeysFileSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success)
    throw new Error(`--keys ${path}: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
  return Array.isArray(parsed.data) ? parsed.data : parsed.data.keys;
}

export function readConfig(argv: string[], env: NodeJS.ProcessEnv): Config {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      completion: { type: 'string' },
      keys: { type: 'string' },
      'max-body-bytes': { type: 'string' },
      'max-callbacks-in-flight': { type: 'string' },
      'callback-journal-size': { type: 'string' },
      'shutdown-timeout': { type: 'string' },
      'max-tenants': { type: 'string' },
      'max-file-bytes-per-tenant': { type: 'string' },
    },
    strict: true,
  });
  const keysPath = values.keys ?? env.LABELMOCK_KEYS;
  const completion = values.completion ?? env.LABELMOCK_COMPLETION;
  const maxBody = values['max-body-bytes'] ?? env.LABELMOCK_MAX_BODY_BYTES;
  const inFlight = values['max-callbacks-in-flight'] ?? env.LABELMOCK_MAX_CALLBACKS_IN_FLIGHT;
  const journalSize = values['callback-journal-size'] ?? env.LABELMOCK_CALLBACK_JOURNAL_SIZE;
  const shutdownTimeout = values['shutdown-timeout'] ?? env.LABELMOCK_SHUTDOWN_TIMEOUT;
  const maxTenants = values['max-tenants'] ?? env.LABELMOCK_MAX_TENANTS;
  const maxFileBytes = values['max-file-bytes-per-tenant'] ?? env.LABELMOCK_MAX_FILE_BYTES_PER_TENANT;
  return ConfigSchema.parse({
    host: values.host ?? env.HOST ?? defaultConfig.host,
    port: Number(values.port ?? env.PORT ?? defaultConfig.port),
    completion: completion ? parseCompletionFlag(completion) : defaultConfig.completion,
    keys: keysPath ? loadKeysFile(keysPath) : undefined,
    maxBodyBytes: maxBody ? Number(maxBody) : defaultConfig.maxBodyBytes,
    maxCallbacksInFlight: inFlight ? Number(inFlight) : defaultConfig.maxCallbacksInFlight,
    callbackJournalSize: journalSize ? Number(journalSize) : defaultConfig.callbackJournalSize,
    shutdownTimeoutMs: shutdownTimeout ? Number(shutdownTimeout) : defaultConfig.shutdownTimeoutMs,
    maxTenants: maxTenants ? Number(maxTenants) : defaultConfig.maxTenants,
    maxFileBytesPerTenant: maxFileBytes ? Number(maxFileBytes) : defaultConfig.maxFileBytesPerTenant,
  });
}
