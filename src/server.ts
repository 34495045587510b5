import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createApp } from './app.js';
import { type Config, readConfig } from './config.js';
import { gracefulShutdown } from './http/shutdown.js';

/** CLI entry: `npm start -- --port 4010 --completion immediate`. */
function main(): void {
  let config: Config;
  try {
    config = readConfig(process.argv.slice(2), process.env);
  } catch (err) {
    console.error(`labelmock: ${(err as Error).message}`);
    process.exit(2);
  }
  const app = createApp({ config });
  const server = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, (info) => {
    const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
    const base = `http://${host}:${info.port}`;
    const keys = config.keys
      ? `  strict keys: ${config.keys.length} key(s) from the keys file`
      : '  test key: test_local    live key: live_local    (any test_<name> / live_<name> works)';
    console.log(
      [
        `labelmock listening on ${base}`,
        `  base URL: ${base}/v1`,
        keys,
        `  completion (test keys): ${config.completion.mode}${config.completion.mode === 'delay' ? ` ${config.completion.delay_ms} ms` : ''}`,
        `  OpenAPI: ${base}/openapi.yaml   control plane: ${base}/_mock/openapi.json`,
        `  try: curl -u test_local: ${base}/v1/tasks`,
      ].join('\n'),
    );
  });
  const shutdown = gracefulShutdown(server as Server, config.shutdownTimeoutMs);
  const stop = () => {
    app.dispose();
    void shutdown().then(({ forced }) => {
      if (forced) console.error(`labelmock: requests still open after ${config.shutdownTimeoutMs} ms were cut off`);
      process.exit(0);
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main();
