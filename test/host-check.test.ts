import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { serveApp } from './browser.js';
import { basic, KEY, makeApp } from './helpers.js';

/** DNS rebinding: a server bound to loopback answers only loopback Host names and those --allowed-hosts adds. */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A GET over a socket with the Host header as given (fetch would set its own). */
function getWithHost(base: string, path: string, host: string): Promise<{ status: number; body: string }> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, headers: { host, authorization: basic(KEY) } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('Host header check', () => {
  it('GET /_mock/state with a rebound Host is a 400 naming it; loopback names of any port are answered', async () => {
    const base = await serveApp(createApp(), cleanups);
    const refused = await getWithHost(base, '/_mock/state', 'rebind.attacker.example:3000');
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toEqual({
      status_code: 400,
      error: expect.stringContaining('"Host" names "rebind.attacker.example", which this server does not answer to'),
    });
    expect(refused.body).not.toContain('callback_auth_key');
    for (const host of ['localhost:3000', '127.0.0.1', '[::1]:8080', 'app.localhost:1', '127.1.2.3:9']) {
      expect((await getWithHost(base, '/v1/tasks', host)).status, host).toBe(200);
    }
  });

  it('--allowed-hosts adds names; * answers any; a server bound beyond loopback answers any by default', async () => {
    const named = await serveApp(createApp({ config: { allowedHosts: ['mock.test'] } }), cleanups);
    expect((await getWithHost(named, '/v1/tasks', 'mock.test:4010')).status).toBe(200);
    expect((await getWithHost(named, '/v1/tasks', 'other.test')).status).toBe(400);
    const any = await serveApp(createApp({ config: { allowedHosts: ['*'] } }), cleanups);
    expect((await getWithHost(any, '/v1/tasks', 'other.test')).status).toBe(200);
    // Bound to every interface on purpose: the check is left to --allowed-hosts.
    const t = makeApp({ config: { host: '0.0.0.0' } });
    const open = await t.app.request('/v1/tasks', { headers: { host: 'other.test', authorization: basic(KEY) } });
    expect(open.status).toBe(200);
  });
});
