import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { LOOPBACK_NAMES, tlsFromDir } from '../src/runtime/tls.js';
import { startCli } from './cli-process.js';

const DAY_MS = 86_400_000;

describe('--tls certificates (src/runtime/tls.ts)', () => {
  it('the first start makes a CA and a server certificate for the loopback names that the CA signed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'labelmock-tls-'));
    const tls = tlsFromDir(dir);
    const ca = new X509Certificate(readFileSync(join(dir, 'ca.pem')));
    const server = new X509Certificate(tls.cert);
    expect(ca.ca).toBe(true);
    expect(server.ca).toBe(false);
    expect(server.verify(ca.publicKey)).toBe(true);
    for (const name of LOOPBACK_NAMES)
      expect(server.subjectAltName).toContain(name === '::1' ? '0:0:0:0:0:0:0:1' : name);
    expect(tls.caFile).toBe(join(dir, 'ca.pem'));
  });

  it('a restart reuses both; a new name or a certificate near its end gets a new one from the same CA', () => {
    const dir = mkdtempSync(join(tmpdir(), 'labelmock-tls-'));
    const first = tlsFromDir(dir);
    const again = tlsFromDir(dir);
    expect(again).toEqual(first);
    const named = tlsFromDir(dir, ['mock.test']);
    expect(named.caPem).toBe(first.caPem);
    expect(named.cert).not.toBe(first.cert);
    expect(new X509Certificate(named.cert).subjectAltName).toContain('DNS:mock.test');
    const later = tlsFromDir(dir, ['mock.test'], new Date(Date.now() + 380 * DAY_MS));
    expect(later.caPem).toBe(first.caPem);
    expect(later.cert).not.toBe(named.cert);
  });
});

describe('the labelmock bin with TLS flags', () => {
  it('--tls-cert without --tls-key stops the start with one line and exit code 2', async () => {
    const cli = startCli(['--port', '0', '--tls-cert', 'cert.pem'], {}, false);
    expect(await cli.exited).toBe(2);
    expect(cli.err()).toContain('labelmock: --tls-cert and --tls-key go together');
  });

  it('four servers started at once on one empty --tls-dir share one CA: trusting ca.pem verifies each', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'labelmock-tls-')), 'shared');
    const servers = Array.from({ length: 4 }, () => startCli(['--port', '0', '--log', 'off', '--tls-dir', dir]));
    onTestFinished(() => {
      for (const server of servers) server.child.kill('SIGKILL');
    });
    const bases = await Promise.all(servers.map((server) => server.base));
    const ca = readFileSync(join(dir, 'ca.pem'));
    const verified = await Promise.all(bases.map((base) => healthOver(base, ca)));
    expect(verified).toEqual([200, 200, 200, 200]);
    expect(readdirSync(dir).sort()).toEqual(['ca-key.pem', 'ca.pem', 'server-key.pem', 'server.pem']);
  });
});

/** GET /_mock/health over HTTPS trusting only `ca`: its status, or the TLS error's code. */
function healthOver(base: string, ca: Buffer): Promise<number | string> {
  return new Promise((resolve) => {
    const req = httpsRequest(`${base}/_mock/health`, { ca }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    req.end();
  });
}
