import { z } from 'zod';
import { ShardIdSchema } from '../domain/control/shard.js';
import { CompletionSettingSchema, RateLimitSchema, UnknownParamsSchema } from '../domain/settings.js';
import { DEFAULT_MAX_FILE_BYTES_PER_TENANT, DEFAULT_MAX_TENANTS } from '../store/limits.js';
import { LatencySchema } from './latency.js';

/** The shape of a validated configuration, and its defaults for library users (createApp). */

const KeyEntrySchema = z
  .object({
    key: z.string().min(1),
    account: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be 1-128 of [A-Za-z0-9_-]'),
    mode: z.enum(['test', 'live']),
  })
  .strict();
export type KeyEntry = z.infer<typeof KeyEntrySchema>;
/** A keys file: the bare array of entries, or `{"keys": [...]}`. */
export const KeysListSchema = z.array(KeyEntrySchema);
export const KeysObjectSchema = z.object({ keys: KeysListSchema }).strict();

/** `pretty`: one aligned line per request for a person; `json`: one object per line for tools; `off`: none. */
export const LogFormatSchema = z.enum(['pretty', 'json', 'off']);
export type LogFormat = z.infer<typeof LogFormatSchema>;

export const SelfCheckModeSchema = z.enum(['off', 'log', 'strict']);

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
  /** Entries each tenant's request journal keeps (a ring: the oldest go first); 0 turns the journal off. */
  journalSize: z.number().int().min(0).max(100_000),
  /** On SIGTERM/SIGINT: how long in-flight requests may take before their connections are cut. */
  shutdownTimeoutMs: z.number().int().min(0).max(600_000),
  /**
   * Long-lived requests held at once app-wide (event streams, delayed or hanging requests); one more is a 503.
   * The CLI lowers it to fit the process's open-file limit, keeping descriptors in reserve.
   */
  maxHeldRequests: z.number().int().min(1).max(1_000_000),
  /** Bytes all tenants' request journals hold together; past it the largest journal drops its oldest entries. */
  maxJournalBytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  maxCallbackJournalBytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  /** Uploaded bytes held in memory by all tenants together (and uploads being read); past it an upload is a 503. */
  maxUploadMemoryBytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  /** Tenants held at once; one more (a new key) is a 503. Tenants that hold nothing are not kept. */
  maxTenants: z.number().int().min(1).max(10_000_000),
  /** Uploaded file bytes one tenant may hold; an upload past it is a 413. */
  maxFileBytesPerTenant: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  /** The request log on stdout (the CLI's default: pretty on a terminal, json otherwise). */
  log: LogFormatSchema,
  /** Browser origins allowed by CORS (`['*']`: any); empty: CORS off, as a server without it. */
  cors: z.array(z.string()),
  /** Checks every answer against the OpenAPI documents: `strict` answers a mismatch as a 500, `log` prints it. */
  selfCheck: SelfCheckModeSchema,
  /** Keeps state in this folder (--data-dir): every change durable before its answer; absent: memory only. */
  dataDir: z.string().min(1).optional(),
  /**
   * Host header names answered beside the loopback ones (--allowed-hosts); `['*']`: any. A server bound to a
   * loopback address answers only loopback names and these (DNS rebinding).
   */
  allowedHosts: z.array(z.string()),
  /** Real-time delay added to every /v1 request (--latency MS or MIN-MAX); absent: none. */
  latency: LatencySchema.optional(),
  /** Serve HTTPS (--tls; implied by --tls-dir and --tls-cert): the CLI makes or reads the certificate. */
  tls: z.boolean(),
  exitWithParent: z.boolean(),
  /** Where --tls keeps its CA and server certificate; default <dataDir>/tls, else ~/.labelmock/tls. */
  tlsDir: z.string().min(1).optional(),
  /** The user's own certificate and key (PEM files), used as given. */
  tlsCert: z.string().min(1).optional(),
  tlsKey: z.string().min(1).optional(),
  /** Every new tenant's request budget (--rate-limit N/S); null: none. PATCH /_mock/settings changes a tenant's. */
  rateLimit: RateLimitSchema.nullable(),
  /** Every new tenant's handling of undeclared /v1 and /v2 parameters (--unknown-params); PATCH /_mock/settings. */
  unknownParams: UnknownParamsSchema,
  /**
   * This process's name among the shards behind a router (--shard-id): answered in the Labelmock-Shard header and
   * GET /_mock/health, labels /metrics, and rides in every link that carries no key (results files) so a router
   * can send it home. Absent: a lone server.
   */
  shardId: ShardIdSchema.optional(),
});
export type Config = z.infer<typeof ConfigSchema>;

export const defaultConfig: Config = {
  host: '127.0.0.1',
  port: 3000,
  completion: { mode: 'manual', delay_ms: 0 },
  maxBodyBytes: 5 * 1024 * 1024,
  maxCallbacksInFlight: 64,
  callbackJournalSize: 1000,
  journalSize: 1000,
  shutdownTimeoutMs: 5000,
  maxTenants: DEFAULT_MAX_TENANTS,
  maxHeldRequests: 512,
  maxJournalBytes: 256 * 1024 * 1024,
  maxCallbackJournalBytes: 256 * 1024 * 1024,
  maxUploadMemoryBytes: 1024 * 1024 * 1024,
  maxFileBytesPerTenant: DEFAULT_MAX_FILE_BYTES_PER_TENANT,
  // A library user embedding the app in tests wants a quiet app; the CLI picks its own default.
  log: 'off',
  cors: [],
  allowedHosts: [],
  selfCheck: 'off',
  rateLimit: null,
  unknownParams: 'lenient',
  tls: false,
  exitWithParent: false,
};
