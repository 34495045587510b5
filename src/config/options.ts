import { type ZodTypeAny, z } from 'zod';
import { ShardIdSchema } from '../domain/control/shard.js';
import { UnknownParamsSchema } from '../domain/settings.js';
import { latencyValue } from './latency.js';
import { type Config, defaultConfig, SelfCheckModeSchema } from './schema.js';
import {
  allowedHostsValue,
  completionValue,
  corsValue,
  hostValue,
  integer,
  keysValue,
  logValue,
  rateLimitValue,
  switchValue,
} from './values.js';

/** One setting of the CLI: its flag, its environment variable, its default and how its value is read. */
export interface OptionDef {
  /** The long flag without its dashes; also the setting's key in a --config file. */
  flag: string;
  /** The value's name in --help; undefined for a bare switch (--tls), which reads as `true`. */
  arg?: string;
  env: string;
  /** The Config field it sets. */
  key: keyof Config;
  help: string;
  /** The default as --help shows it. */
  shownDefault: string;
  /** Reads a flag or environment string, or a --config JSON value, into the Config value. */
  value: ZodTypeAny;
}

const MiB = 1024 * 1024;

/** Every setting, in --help order. The one list the flags, the environment and --config files are read by. */
export const OPTIONS: readonly OptionDef[] = [
  {
    flag: 'port',
    arg: 'N',
    env: 'PORT',
    key: 'port',
    help: 'port to listen on; 0 picks a free one',
    shownDefault: String(defaultConfig.port),
    value: integer(0, 65535),
  },
  {
    flag: 'host',
    arg: 'HOST',
    env: 'HOST',
    key: 'host',
    help: 'address to bind; use 0.0.0.0 only on purpose',
    shownDefault: defaultConfig.host,
    value: hostValue,
  },
  {
    flag: 'allowed-hosts',
    arg: 'NAMES',
    env: 'LABELMOCK_ALLOWED_HOSTS',
    key: 'allowedHosts',
    help:
      'Host header names answered besides localhost, 127.0.0.1 and [::1]: a comma list (mock.test) or *; ' +
      'a server bound to loopback refuses other names (DNS rebinding)',
    shownDefault: 'loopback names only',
    value: allowedHostsValue,
  },
  {
    flag: 'completion',
    arg: 'MODE',
    env: 'LABELMOCK_COMPLETION',
    key: 'completion',
    help:
      'how test tasks complete: manual, immediate (at once, as in the real test mode), delay:<ms>, or ' +
      'reads:<n> (the nth read of a task finds it completed)',
    shownDefault: defaultConfig.completion.mode,
    value: completionValue,
  },
  {
    flag: 'keys',
    arg: 'FILE',
    env: 'LABELMOCK_KEYS',
    key: 'keys',
    help: 'strict mode: accept only the keys listed in this JSON file',
    shownDefault: 'open mode',
    value: keysValue,
  },
  {
    flag: 'log',
    arg: 'FORMAT',
    env: 'LABELMOCK_LOG',
    key: 'log',
    help: 'request log on stdout, one line per request: pretty, json or off',
    shownDefault: 'pretty on a terminal, json otherwise',
    value: logValue,
  },
  {
    flag: 'cors',
    arg: 'ORIGINS',
    env: 'LABELMOCK_CORS',
    key: 'cors',
    help: 'let browser apps on these origins call the mock: a comma list (http://localhost:5173) or *',
    shownDefault: 'off',
    value: corsValue,
  },
  {
    flag: 'self-check',
    arg: 'MODE',
    env: 'LABELMOCK_SELF_CHECK',
    key: 'selfCheck',
    help: 'check every answer against the OpenAPI documents: strict (a mismatch answers 500), log, or off',
    shownDefault: 'off',
    value: SelfCheckModeSchema,
  },
  {
    flag: 'max-body-bytes',
    arg: 'N',
    env: 'LABELMOCK_MAX_BODY_BYTES',
    key: 'maxBodyBytes',
    help: 'largest JSON body; above it: 413',
    shownDefault: String(defaultConfig.maxBodyBytes),
    value: integer(1),
  },
  {
    flag: 'max-tenants',
    arg: 'N',
    env: 'LABELMOCK_MAX_TENANTS',
    key: 'maxTenants',
    help: 'tenants held at once; a new key past it: 503',
    shownDefault: String(defaultConfig.maxTenants),
    value: integer(1, 10_000_000),
  },
  {
    flag: 'max-held-requests',
    arg: 'N',
    env: 'LABELMOCK_MAX_HELD_REQUESTS',
    key: 'maxHeldRequests',
    help:
      'event streams and delayed or hanging requests held at once, app-wide (lowered to fit the open-file ' +
      'limit); one more: 503',
    shownDefault: String(defaultConfig.maxHeldRequests),
    value: integer(1, 1_000_000),
  },
  {
    flag: 'max-journal-bytes',
    arg: 'N',
    env: 'LABELMOCK_MAX_JOURNAL_BYTES',
    key: 'maxJournalBytes',
    help: 'bytes all request journals hold together; past it the largest drops its oldest entries',
    shownDefault: `${defaultConfig.maxJournalBytes} = ${defaultConfig.maxJournalBytes / MiB} MiB`,
    value: integer(0),
  },
  {
    flag: 'max-callback-journal-bytes',
    arg: 'N',
    env: 'LABELMOCK_MAX_CALLBACK_JOURNAL_BYTES',
    key: 'maxCallbackJournalBytes',
    help: 'bytes all callback journals hold together; past it the largest drops its oldest finished deliveries',
    shownDefault: `${defaultConfig.maxCallbackJournalBytes} = ${defaultConfig.maxCallbackJournalBytes / MiB} MiB`,
    value: integer(0),
  },
  {
    flag: 'max-upload-memory-bytes',
    arg: 'N',
    env: 'LABELMOCK_MAX_UPLOAD_MEMORY_BYTES',
    key: 'maxUploadMemoryBytes',
    help: 'uploaded bytes all tenants hold in memory together (uploads in progress included); past it: 503',
    shownDefault: `${defaultConfig.maxUploadMemoryBytes} = ${defaultConfig.maxUploadMemoryBytes / MiB} MiB`,
    value: integer(0),
  },
  {
    flag: 'max-file-bytes-per-tenant',
    arg: 'N',
    env: 'LABELMOCK_MAX_FILE_BYTES_PER_TENANT',
    key: 'maxFileBytesPerTenant',
    help: 'uploaded file bytes one tenant may hold; past it: 413',
    shownDefault: `${defaultConfig.maxFileBytesPerTenant} = ${defaultConfig.maxFileBytesPerTenant / MiB} MiB`,
    value: integer(0),
  },
  {
    flag: 'max-callbacks-in-flight',
    arg: 'N',
    env: 'LABELMOCK_MAX_CALLBACKS_IN_FLIGHT',
    key: 'maxCallbacksInFlight',
    help: 'callback deliveries under way at once, app-wide; the rest wait their turn',
    shownDefault: String(defaultConfig.maxCallbacksInFlight),
    value: integer(1, 10_000),
  },
  {
    flag: 'callback-journal-size',
    arg: 'N',
    env: 'LABELMOCK_CALLBACK_JOURNAL_SIZE',
    key: 'callbackJournalSize',
    help: 'callback journal entries kept per tenant; the oldest finished ones go first',
    shownDefault: String(defaultConfig.callbackJournalSize),
    value: integer(1, 1_000_000),
  },
  {
    flag: 'journal-size',
    arg: 'N',
    env: 'LABELMOCK_JOURNAL_SIZE',
    key: 'journalSize',
    help: 'request journal entries kept per tenant (GET /_mock/requests); the oldest go first; 0: off',
    shownDefault: String(defaultConfig.journalSize),
    value: integer(0, 100_000),
  },
  {
    flag: 'data-dir',
    arg: 'DIR',
    env: 'LABELMOCK_DATA_DIR',
    key: 'dataDir',
    help: 'keep state in DIR: survives restarts and kill -9 (a journal plus snapshots); default: memory only',
    shownDefault: 'memory only',
    value: z.string().min(1, 'must name a folder'),
  },
  {
    flag: 'latency',
    arg: 'MS|MIN-MAX',
    env: 'LABELMOCK_LATENCY',
    key: 'latency',
    help: 'real-time delay for every /v1 request: MS, or drawn from MIN-MAX (0-60000)',
    shownDefault: 'none',
    value: latencyValue,
  },
  {
    flag: 'rate-limit',
    arg: 'N/S|off',
    env: 'LABELMOCK_RATE_LIMIT',
    key: 'rateLimit',
    help:
      "every tenant's /v1 and /v2 requests: N per S seconds of its virtual clock, past it 429 with Retry-After " +
      "(PATCH /_mock/settings changes a tenant's)",
    shownDefault: 'off',
    value: rateLimitValue,
  },
  {
    flag: 'unknown-params',
    arg: 'lenient|strict',
    env: 'LABELMOCK_UNKNOWN_PARAMS',
    key: 'unknownParams',
    help:
      'a /v1 or /v2 parameter no route declares: lenient accepts and ignores it like the real service, naming it ' +
      "in the Labelmock-Warning header; strict answers 400 (PATCH /_mock/settings changes a tenant's)",
    shownDefault: 'lenient',
    value: UnknownParamsSchema,
  },
  {
    flag: 'tls',
    env: 'LABELMOCK_TLS',
    key: 'tls',
    help:
      'serve HTTPS with a certificate for localhost, 127.0.0.1 and ::1 signed by a CA of its own (made once, ' +
      'kept in the TLS folder, served at /_mock/tls/ca.pem)',
    shownDefault: 'off (plain HTTP)',
    value: switchValue,
  },
  {
    flag: 'tls-dir',
    arg: 'DIR',
    env: 'LABELMOCK_TLS_DIR',
    key: 'tlsDir',
    help: 'where --tls keeps its CA and certificate (implies --tls)',
    shownDefault: '<data-dir>/tls, else ~/.labelmock/tls',
    value: z.string().min(1, 'must name a folder'),
  },
  {
    flag: 'tls-cert',
    arg: 'FILE',
    env: 'LABELMOCK_TLS_CERT',
    key: 'tlsCert',
    help: 'serve HTTPS with this certificate (PEM, chain included) instead of a generated one; needs --tls-key',
    shownDefault: 'generated',
    value: z.string().min(1, 'must name a file'),
  },
  {
    flag: 'tls-key',
    arg: 'FILE',
    env: 'LABELMOCK_TLS_KEY',
    key: 'tlsKey',
    help: "the private key (PEM) of --tls-cert's certificate",
    shownDefault: 'generated',
    value: z.string().min(1, 'must name a file'),
  },
  {
    flag: 'shard-id',
    arg: 'NAME',
    env: 'LABELMOCK_SHARD_ID',
    key: 'shardId',
    help:
      'this process is one shard behind a router (docs/scale-out.md): its name, answered in the Labelmock-Shard ' +
      'header and /_mock/health, a label of /metrics, and carried in keyless links (results files)',
    shownDefault: 'none (a lone server)',
    value: ShardIdSchema,
  },
  {
    flag: 'exit-with-parent',
    env: 'LABELMOCK_EXIT_WITH_PARENT',
    key: 'exitWithParent',
    help:
      'stop within a second of the process that started the server exiting, by any signal (a test runner that ' +
      'was killed); started by npm (npx, npm start) it does so anyway',
    shownDefault: 'off',
    value: switchValue,
  },
  {
    flag: 'shutdown-timeout',
    arg: 'MS',
    env: 'LABELMOCK_SHUTDOWN_TIMEOUT',
    key: 'shutdownTimeoutMs',
    help: 'on SIGTERM/SIGINT, how long requests in flight may finish',
    shownDefault: String(defaultConfig.shutdownTimeoutMs),
    value: integer(0, 600_000),
  },
];

/** `--config FILE` is read before the others and is not a setting itself, so it is not in OPTIONS. */
export const CONFIG_OPTION = { flag: 'config', arg: 'FILE', env: 'LABELMOCK_CONFIG' } as const;
