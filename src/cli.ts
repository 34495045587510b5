#!/usr/bin/env node
import { lookup } from 'node:dns/promises';
import type { Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, isIP } from 'node:net';
import { constants, homedir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { createApp, type MockApp } from './app.js';
import { fitHeldRequests, openFilesLimit, RESERVED_DESCRIPTORS } from './config/descriptors.js';
import { type Config, ConfigError, parseCommandLine } from './config/index.js';
import { serveAsShard } from './http/shard.js';
import { gracefulShutdown } from './http/shutdown.js';
import { DataDirLockedError } from './persist/lock.js';
import { watchParent } from './runtime/parent-watch.js';
import { type TlsMaterial, tlsFromDir, tlsFromFiles } from './runtime/tls.js';
import type { Io } from './tools/command.js';
import { runDrift } from './tools/drift/main.js';
import { runRecord } from './tools/record/main.js';
// The CLI's process owns its zod: only here is zod's ZodEffects given the fix (see the module). A library
// import of labelmock changes nothing outside labelmock.
import { ZOD_EFFECTS_FIXED } from './zod-effects-fix.js';

/** The `labelmock` bin: `labelmock --port 4010 --completion immediate` (`labelmock --help` for every flag). */

/** Bad flags, environment or config file: one line per problem, exit code 2 (a usage error, as for most CLIs). */
function readCommandLine(): Config {
  try {
    const commandLine = parseCommandLine(process.argv.slice(2), process.env, { stdoutIsTTY: process.stdout.isTTY });
    if (commandLine.kind === 'run') return commandLine.config;
    process.stdout.write(commandLine.output);
    process.exit(0);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    for (const problem of err.problems) console.error(`labelmock: ${problem}`);
    process.exit(2);
  }
}

/** Where state lives, and what a start found there. */
function stateLine(durable: MockApp['durable']): string {
  if (!durable) return 'in memory only (lost on exit; --data-dir DIR keeps it)';
  const { dir, report } = durable;
  const found = `${report.tasks} task(s) of ${report.tenants} tenant(s), read in ${Math.round(report.ms)} ms`;
  return `${dir} (${found})`;
}

/** How a client comes to trust a --tls server: the CA file, or the user's own certificate. */
function tlsLines(tls: TlsMaterial | undefined, base: string): string[] {
  if (!tls) return [];
  if (!tls.caFile) return ['  TLS: the certificate of --tls-cert'];
  const file = tls.caFile;
  return [
    `  TLS CA: ${file}   (also ${base}/_mock/tls/ca.pem)`,
    `    trust it: REQUESTS_CA_BUNDLE=${file}  NODE_EXTRA_CA_CERTS=${file}  curl --cacert ${file}`,
  ];
}

function printBanner(
  config: Config,
  info: AddressInfo,
  durable: MockApp['durable'],
  tls: TlsMaterial | undefined,
): void {
  const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
  const base = `${tls ? 'https' : 'http'}://${host}:${info.port}`;
  // A key that works here: the keys file's first in strict mode (test_local would be refused), else test_local.
  const strictKey = config.keys?.[0];
  const example = strictKey?.key ?? 'test_local';
  const keys = strictKey
    ? `  strict keys: ${config.keys?.length} key(s) from the keys file, e.g. ${example} (${strictKey.mode})`
    : '  test key: test_local    live key: live_local    (any test_<name> / live_<name> works)';
  const delay = config.completion.mode === 'delay' ? ` ${config.completion.delay_ms} ms` : '';
  console.log(
    [
      `labelmock listening on ${base}`,
      `  base URL: ${base}/v1   (v2: ${base}/v2)`,
      keys,
      `  completion (test keys): ${config.completion.mode}${delay}`,
      ...(config.cors.length > 0 ? [`  CORS allowed for: ${config.cors.join(', ')}`] : []),
      `  state: ${stateLine(durable)}`,
      ...tlsLines(tls, base),
      `  docs: ${base}/docs   OpenAPI: ${base}/openapi.yaml, ${base}/openapi-v2.yaml, ${base}/_mock/openapi.json`,
      `  inspector: ${base}/_mock/ui/#key=${encodeURIComponent(example)}`,
      `  try: curl ${tls?.caFile ? `--cacert ${tls.caFile} ` : ''}-u '${example}:' ${base}/v1/tasks`,
    ].join('\n'),
  );
}

/** Why the server could not listen, said as what to do about it. */
function listenProblem(err: NodeJS.ErrnoException, config: Config): string {
  const where = `port ${config.port} on ${config.host}`;
  const another = 'pick another with --port N, or --port 0 for a free one';
  switch (err.code) {
    case 'EADDRINUSE':
      return `${where} is already in use; ${another}`;
    case 'EACCES':
      return `${where} needs privileges this user does not have (ports below 1024 usually do); ${another}`;
    case 'EADDRNOTAVAIL':
      return `${config.host} is not an address of this machine; use --host 127.0.0.1, or 0.0.0.0 for every interface`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN': {
      const fix = 'use --host 127.0.0.1, or an address of this machine';
      return `--host ${config.host} does not resolve to an address; ${fix}`;
    }
    default:
      return `cannot listen on ${where}: ${err.message}`;
  }
}

/**
 * SIGINT/SIGTERM: stop the app's timers, let requests in flight finish (at most
 * --shutdown-timeout), then exit. The exit is explicit: a callback delivery still waiting for a
 * slow receiver (up to its timeout) would otherwise hold the process, and the CLI starts no
 * child processes, so nothing outlives it. A second signal stops at once.
 */
function stopOnSignals(app: MockApp, server: Server, config: Config): void {
  const shutdown = gracefulShutdown(server, config.shutdownTimeoutMs);
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      console.error(`labelmock: second ${signal}: stopped at once, requests in flight were cut off`);
      // Disposing again writes out the request log's buffered lines.
      app.dispose();
      process.exit(128 + constants.signals[signal]);
    }
    stopping = true;
    app.dispose();
    void shutdown().then(async ({ forced }) => {
      if (forced) console.error(`labelmock: requests still open after ${config.shutdownTimeoutMs} ms were cut off`);
      // The journal's last group is written and the folder unlocked before the exit.
      await app.close();
      process.exit(0);
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Started by npm (npx, npm start, npm exec): npm does not pass a signal on to the server, so its exit is one.
  // --exit-with-parent asks for the same under any parent (the pytest plugin's, which may be killed).
  const underNpm = Boolean(process.env.npm_command || process.env.npm_lifecycle_event);
  if (underNpm || config.exitWithParent) watchParent(() => stop('SIGTERM'));
}

/**
 * --tls (or --tls-dir, --tls-cert): the certificate to serve, made or read before the app starts; a problem
 * ends the start with one line (2 for flags that do not fit together, 1 for files that cannot be used).
 */
function tlsMaterial(config: Config): TlsMaterial | undefined {
  const { tls, tlsDir, tlsCert, tlsKey, dataDir } = config;
  if (!tls && tlsDir === undefined && tlsCert === undefined && tlsKey === undefined) return undefined;
  if ((tlsCert === undefined) !== (tlsKey === undefined)) {
    console.error('labelmock: --tls-cert and --tls-key go together: give both, or neither for a generated certificate');
    process.exit(2);
  }
  try {
    if (tlsCert !== undefined && tlsKey !== undefined) return tlsFromFiles(tlsCert, tlsKey);
    const dir = tlsDir ?? (dataDir ? join(dataDir, 'tls') : join(homedir(), '.labelmock', 'tls'));
    // The names a client may use beyond the loopback ones: --allowed-hosts, and an address bound on purpose.
    const bound = ['0.0.0.0', '::', '127.0.0.1', 'localhost', '::1'].includes(config.host) ? [] : [config.host];
    return tlsFromDir(dir, [...config.allowedHosts, ...bound]);
  } catch (err) {
    console.error(`labelmock: cannot set up TLS: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}

/** The app; a --data-dir another process holds, or one that cannot be used, ends the start with why. */
function openApp(config: Config, tls: TlsMaterial | undefined): MockApp {
  try {
    return createApp({ config, ...(tls && { tlsCaPem: tls.caPem }) });
  } catch (err) {
    if (!config.dataDir) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    const why = err instanceof DataDirLockedError ? err.message : `cannot use --data-dir ${config.dataDir}: ${reason}`;
    console.error(why.startsWith('labelmock:') ? why : `labelmock: ${why}`);
    process.exit(1);
  }
}

/**
 * The address --host names, as the server binds it (Node resolves a name to its first address): the app's
 * DNS-rebinding check decides "loopback" from this address, not from how --host is spelt (`127.1`, or a name
 * that resolves to 127.x, is loopback).
 */
async function bindAddress(config: Config): Promise<string> {
  if (isIP(config.host) !== 0) return config.host;
  try {
    return (await lookup(config.host)).address;
  } catch (err) {
    console.error(`labelmock: ${listenProblem(err as NodeJS.ErrnoException, config)}`);
    process.exit(1);
  }
}

async function main(): Promise<void> {
  const asked = readCommandLine();
  const limit = openFilesLimit();
  const config = {
    ...asked,
    maxHeldRequests: fitHeldRequests(asked.maxHeldRequests, asked.maxCallbacksInFlight, limit),
  };
  if (config.maxHeldRequests < asked.maxHeldRequests) {
    console.error(
      `labelmock: --max-held-requests lowered to ${config.maxHeldRequests} to keep ${RESERVED_DESCRIPTORS} of the ` +
        `${limit} open files (ulimit -n) for other requests`,
    );
  }
  if (!ZOD_EFFECTS_FIXED) {
    // Said, not silent: a build or a zod whose ZodEffects the fix does not fit validates several times slower.
    console.error("labelmock: zod's ZodEffects is not the one the fast path fits: validation runs zod's own code");
  }
  const tls = tlsMaterial(config);
  const address = await bindAddress(config);
  const app = openApp({ ...config, host: address }, tls);
  const listen = { fetch: app.fetch, hostname: address, port: config.port };
  const https = tls && { createServer: createHttpsServer, serverOptions: { cert: tls.cert, key: tls.key } };
  const server = serve({ ...listen, ...https }, (info) => printBanner(config, info, app.durable, tls)) as Server;
  if (config.shardId !== undefined) serveAsShard(server, config.shardId);
  // Only while listening starts: an address in use is a user's situation, not a crash with a stack.
  const onListenError = (err: NodeJS.ErrnoException) => {
    app.dispose();
    console.error(`labelmock: ${listenProblem(err, config)}`);
    process.exit(1);
  };
  server.once('error', onListenError);
  server.once('listening', () => server.off('error', onListenError));
  stopOnSignals(app, server, config);
}

/** `labelmock record ...` and `labelmock drift ...` run on their own; anything else starts the server. */
const TOOLS: Readonly<Record<string, (argv: readonly string[], io: Io) => Promise<number>>> = {
  record: runRecord,
  drift: runDrift,
};
const tool = Object.hasOwn(TOOLS, process.argv[2] ?? '') ? TOOLS[process.argv[2] as string] : undefined;
if (tool) {
  const io: Io = { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) };
  const code = await tool(process.argv.slice(3), io);
  process.stdout.write('', () => process.exit(code));
} else {
  await main();
}
