import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliProcess, startCli } from '../cli-process.js';
import { basic } from '../helpers.js';

/**
 * The official Python client's recovery paths, over HTTPS as it needs them (its Retry adapter is mounted on
 * https:// only): test/compat/python/client_transport.py drives requests and urllib3 as scaleapi/api.py does,
 * against the real bin started with --tls, trusting the CA the bin made (verify= and REQUESTS_CA_BUNDLE).
 */

const run = promisify(execFile);
const SCRIPT = new URL('./python/client_transport.py', import.meta.url).pathname;
const KEY = 'test_pyretry';
const auth = basic(KEY);

let cli: CliProcess;
let base: string;
let caFile: string;

/** An HTTPS call that trusts only the bin's CA (Node's fetch takes no CA of its own). */
function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      { method, ca: readFileSync(caFile), headers: { authorization: auth, 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const json = /json/.test(res.headers['content-type'] ?? '');
          resolve({ status: res.statusCode ?? 0, body: json ? JSON.parse(text) : undefined, text });
        });
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function client(scenario: string, ...args: string[]): Promise<any> {
  const { stdout } = await run('python3', [SCRIPT, `${base}/v1`, KEY, caFile, scenario, ...args], {
    env: { ...process.env, REQUESTS_CA_BUNDLE: caFile },
  });
  return JSON.parse(stdout);
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'labelmock-tls-'));
  cli = startCli(['--port', '0', '--tls', '--tls-dir', dir, '--log', 'off']);
  base = (await cli.base).replace('127.0.0.1', 'localhost');
  caFile = join(dir, 'ca.pem');
});

afterAll(async () => {
  cli.child.kill('SIGTERM');
  await cli.exited;
});

describe('the Python client over HTTPS (--tls)', () => {
  it('GET /_mock/tls/ca.pem answers the CA file the banner names, and the bin says how to trust it', async () => {
    const res = await call('GET', '/_mock/tls/ca.pem');
    expect(res.status).toBe(200);
    expect(res.text).toBe(readFileSync(caFile, 'utf8'));
    expect(cli.out()).toContain(`REQUESTS_CA_BUNDLE=${caFile}`);
  });

  it('two 429s then success: the client retries by itself, three attempts in the journal, one result', async () => {
    const rule = await call('POST', '/_mock/faults', { method: 'GET', path: '/v1/tasks', status: 429, times: 2 });
    expect(rule.status).toBe(200);
    const result = await client('list');
    expect(result).toMatchObject({ status: 200, json: { docs: [], has_more: false } });
    const journal = await call('GET', '/_mock/requests?method=GET&path=/v1/tasks');
    expect(journal.body.requests.map((entry: { status: number }) => entry.status)).toEqual([200, 429, 429]);
  }, 120_000);

  it('a unique_id creation whose answer is lost (after: commit, 500) comes back through the 409 recovery', async () => {
    const uniqueId = `lost-${Date.now()}`;
    const rule = { method: 'POST', path: '/v1/task/imageannotation', status: 500, after: 'commit', times: 1 };
    expect((await call('POST', '/_mock/faults', rule)).status).toBe(200);
    const result = await client('create', uniqueId);
    expect(result).toMatchObject({ status: 200, recovered: true, first_status: 500, json: { unique_id: uniqueId } });
    const found = await call('GET', `/v1/tasks?unique_id=${uniqueId}`);
    expect(found.body.docs.map((task: { task_id: string }) => task.task_id)).toEqual([result.json.task_id]);
    const journal = await call('GET', '/_mock/requests?method=POST&path=/v1/task/imageannotation');
    const faults = journal.body.requests.map((entry: { status: number; fault?: object }) => [
      entry.status,
      entry.fault,
    ]);
    expect(faults).toEqual([
      [409, undefined],
      [500, expect.objectContaining({ after: 'commit', committed_status: 200, status: 500 })],
    ]);
  }, 120_000);
});
