import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../contracts/kit/cli-main.js';
import { contract, registeredContracts } from '../contracts/kit/contract.js';
import { formatPretty, xmlEscape } from '../contracts/kit/report.js';
import { type ContractResult, runContracts, selectContracts } from '../contracts/kit/runner.js';
import type { Tag } from '../contracts/kit/tags.js';
import { redact } from '../contracts/kit/target.js';
import '../contracts/suite/index.js';
import { type CreateAppOptions, createApp, type MockApp } from '../src/app.js';
import { basic, present } from './helpers.js';

/**
 * The contract kit itself: tags, the CLI (list, filters, reporters, preflight, base URL), failure
 * reports, and whether it tells a correct implementation from one that breaks a single rule.
 * Targets are in-process apps, some behind a fetch that changes one behaviour on purpose.
 */

const apps: MockApp[] = [];
afterAll(() => {
  for (const app of apps) app.dispose();
});

type Fetch = typeof fetch;

function appFetch(options: CreateAppOptions = {}): Fetch {
  const app = createApp(options);
  apps.push(app);
  return async (input, init) => app.request(input instanceof Request ? input : String(input), init);
}

async function cli(argv: string[], fetch?: Fetch) {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), fetch });
  return { code, out, err };
}

let keyCount = 0;
function keys() {
  keyCount += 1;
  const id = `${Date.now().toString(36)}${keyCount}`;
  return { apiKey: `test_kit_${id}`, otherApiKey: `test_kit_other_${id}`, liveApiKey: `live_kit_${id}` };
}

/** Runs contracts against a fetch, with every key disposable (a fresh in-process tenant). */
async function run(fetch: Fetch, tags: Tag[], grep?: string) {
  const k = keys();
  return runContracts({
    baseUrl: 'http://kit.test/v1',
    ...k,
    disposableKeys: [k.apiKey, k.otherApiKey],
    fetch,
    tags,
    grep,
    waitMs: 1500,
  });
}

/** Runs the one contract `grep` names (see run). */
async function runOne(fetch: Fetch, tags: Tag[], grep: string) {
  return present((await run(fetch, tags, grep))[0], `the result of "${grep}"`);
}

const failed = (results: ContractResult[]) =>
  results.filter((r) => r.status === 'failed' || r.status === 'setup-failed');

/** A fetch that rewrites requests and answers of the wrapped target. */
function wrap(
  inner: Fetch,
  change: {
    request?: (
      method: string,
      url: URL,
      body: any,
    ) => { url?: URL; method?: string; body?: any; answer?: Response } | undefined;
    /** Answers a new body, or a whole Response, or undefined to keep the answer. */
    response?: (method: string, url: URL, body: any, requestBody: any) => any;
  },
): Fetch {
  return async (input, init = {}) => {
    let url = new URL(String(input));
    const method = (init.method ?? 'GET').toUpperCase();
    let body: any;
    try {
      body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    } catch {
      body = undefined;
    }
    const changed = change.request?.(method, url, body);
    if (changed?.answer) return changed.answer;
    if (changed?.url) url = changed.url;
    let nextInit = changed && 'body' in changed ? { ...init, body: JSON.stringify(changed.body) } : init;
    if (changed?.method) nextInit = { ...nextInit, method: changed.method };
    const res = await inner(url.toString(), nextInit);
    if (!change.response) return res;
    const text = await res.text();
    let parsed: any;
    try {
      parsed = JSON.parse(text);
    } catch {
      return new Response(text, { status: res.status, headers: res.headers });
    }
    const out = change.response(method, url, parsed, body) ?? parsed;
    if (out instanceof Response) return out;
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    return new Response(JSON.stringify(out), { status: res.status, headers });
  };
}

describe('tags', () => {
  it('gives every contract interface, client or labelmock, and control exactly when it needs /_mock routes', () => {
    const contracts = registeredContracts();
    expect(contracts.length).toBeGreaterThan(250);
    for (const c of contracts) {
      expect(c.tags.filter((t) => t !== 'control')).toHaveLength(1);
      expect(c.tags.includes('control')).toBe(c.needs.length > 0);
    }
    const interfaceOnly = selectContracts({ tags: ['interface'] });
    expect(interfaceOnly.length).toBeGreaterThan(150);
    expect(interfaceOnly.every((c) => c.tags.length === 1)).toBe(true);
    // The client surface (the v2 API, task types nothing specifies, quality tasks, templates) is
    // never in an --tags interface run, and is all a --tags client one runs.
    const surface = /\/v2\/|\/v1\/task\/(documentmodel|sensorfusion|chat|multistage) |_tasks\/|taskTemplates/;
    const client = contracts.filter((c) => surface.test(c.name));
    expect(client.map((c) => c.name)).toContain(
      'POST /v1/task/multistage accepts its required parameters and stores the others as given',
    );
    expect(client.filter((c) => c.tags[0] !== 'client')).toEqual([]);
    expect(selectContracts({ tags: ['client', 'control'] })).toEqual(contracts.filter((c) => c.tags[0] === 'client'));
    // Every interface contract says where its rule is written.
    expect(contracts.filter((c) => c.tags[0] === 'interface' && !c.cites).map((c) => c.name)).toEqual([]);
  });

  it('refuses to register a contract that is tagged interface but cites nothing, or that no pattern classifies', () => {
    expect(() => contract('a rule written nowhere', async () => undefined, { kind: 'interface' })).toThrow(
      /tagged interface but cites no section/,
    );
    expect(() => contract('a rule written nowhere', async () => undefined)).toThrow(/matches no pattern/);
    expect(registeredContracts().some((c) => c.name === 'a rule written nowhere')).toBe(false);
  });
});

/**
 * A server that is right where the interface leaves it free: it defaults lidarannotation's attachment_type to json,
 * ignores lidar_task on lidarsegmentation and conditions on fields that are not categories, accepts geometries
 * naming no geometry, and answers quality pages without has_more.
 */
function freeWhereTheInterfaceIs(inner: Fetch): Fetch {
  return wrap(inner, {
    request: (method, url, body) => {
      if (method !== 'POST' || !body || typeof body !== 'object') return undefined;
      if (url.pathname.endsWith('/task/lidarannotation') && body.attachment_type === undefined)
        return { body: { ...body, attachment_type: 'json' } };
      if (url.pathname.endsWith('/task/lidarsegmentation') && body.lidar_task !== undefined) {
        const { lidar_task: _ignored, ...rest } = body;
        return { body: rest };
      }
      if (url.pathname.endsWith('/task/textcollection') && Array.isArray(body.fields)) {
        const fields = body.fields.map((f: any) => {
          if (f.type === 'category' || f.conditions === undefined) return f;
          const { conditions: _ignored, ...rest } = f;
          return rest;
        });
        return { body: { ...body, fields } };
      }
      if (url.pathname.endsWith('/task/imageannotation') && body.geometries && !Object.keys(body.geometries).length)
        return { body: { ...body, geometries: { box: { objects_to_annotate: ['anything'] } } } };
      return undefined;
    },
    response: (method, url, body) => {
      if (method !== 'GET' || url.pathname !== '/v1/quality/labelers' || !body) return undefined;
      const { has_more: _dropped, ...rest } = body;
      return rest;
    },
  });
}

describe('neutral where the interface is', () => {
  it('a server free where the interface is passes the interface contracts that touch those choices', async () => {
    const server = freeWhereTheInterfaceIs(appFetch());
    for (const grep of [
      'POST /v1/task/lidarannotation breaking its rules',
      'POST /v1/task/lidarsegmentation',
      'GET /v1/quality/labelers',
      'POST /v1/task/imageannotation with',
    ]) {
      const results = await run(server, ['interface'], grep);
      expect(results.length, grep).toBeGreaterThan(0);
      expect(failed(results).map((r) => `${r.name}: ${r.message}`)).toEqual([]);
    }
    // Their labelmock rules still hold labelmock to its own reading.
    const strict = await run(server, ['interface', 'labelmock'], 'POST /v1/task/lidarannotation breaking its rules');
    expect(failed(strict).map((r) => r.name)).toEqual([
      'POST /v1/task/lidarannotation breaking its rules answers 400 naming the field',
    ]);
  }, 60_000);

  it('a server that merges any one object field of a setParams patch fails the patch contract', async () => {
    for (const [field, merged] of [
      ['geometries', { box: { objects_to_annotate: ['car'] } }],
      ['image_metadata', { date_time: '2026-01-01T10:00:00Z' }],
      ['annotation_attributes', { occluded: { description: 'Occluded?', choices: ['yes', 'no'] } }],
    ] as const) {
      let project: string | undefined;
      const merging = wrap(appFetch(), {
        request: (method, url, body) => {
          if (method === 'POST' && url.pathname.endsWith('/setParams') && body?.patch === true && body[field])
            project = decodeURIComponent(url.pathname.split('/')[3] ?? '');
          return undefined;
        },
        // Tasks of the patched project show the field as a merge would leave it: a key of version 1 kept.
        response: (method, url, body, sent) => {
          if (method !== 'POST' || !url.pathname.endsWith('/task/imageannotation') || sent?.project !== project)
            return undefined;
          if (project === undefined || !body?.params?.[field]) return undefined;
          return { ...body, params: { ...body.params, [field]: { ...merged, ...body.params[field] } } };
        },
      });
      const result = await runOne(merging, ['interface'], 'setParams appends versions 0 to 3');
      expect(result.status, field).toBe('failed');
      expect(result.failures.map((f) => f.rule)).toEqual([
        `patch replaces the object field ${field} whole (objects are not merged)`,
      ]);
    }
  }, 60_000);
});

describe('labelmock-contracts CLI', () => {
  it('--list prints the selected contracts with tags, without any request', async () => {
    const all = await cli(['--list', '--tags', 'interface,recorded,client,labelmock,control']);
    const onlyInterface = await cli(['--list', '--tags', 'interface']);
    expect(all.code).toBe(0);
    expect(all.out).toContain(`${registeredContracts().length} contracts`);
    expect(onlyInterface.out).toContain(`${selectContracts({ tags: ['interface'] }).length} contracts`);
    expect(onlyInterface.out).not.toMatch(/\[.*(labelmock|control).*\]/);
    expect(all.out).toMatch(/\[labelmock,control\] {2}needs: .*\/_mock\//);
    // Each interface contract names where its rule is written.
    expect(onlyInterface.out).toContain(
      'with six tags answers 400 naming tags  [interface]  cites: interface: Limits\n',
    );
    expect(
      onlyInterface.out.split('\n').filter((line) => line.includes('[interface]') && !line.includes('cites: ')),
    ).toEqual([]);
  });

  it('--grep is case-insensitive', async () => {
    const { out } = await cli(['--list', '--grep', 'IDEMPOTENCY-KEY', '--tags', 'interface,labelmock,control']);
    expect(out).toMatch(/Idempotency-Key/);
    expect(out).not.toMatch(/^0 contracts/m);
  });

  it('refuses unknown tags and reporters with exit 2', async () => {
    expect((await cli(['--list', '--tags', 'interfaces'])).code).toBe(2);
    expect((await cli(['--base-url', 'http://x', '--api-key', 'k', '--reporter', 'tap'])).code).toBe(2);
  });

  it('runs against a base URL ending in /v1 and writes a JSON report', async () => {
    const { code, out } = await cli(
      [
        '--base-url',
        'http://kit.test/v1/',
        '--api-key',
        keys().apiKey,
        '--grep',
        'GET /v1/tasks lists newest first',
        '--reporter',
        'json',
      ],
      appFetch(),
    );
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.summary).toMatchObject({ passed: 1, failed: 0, total: 1 });
    expect(report.results[0]).toMatchObject({ status: 'passed', tags: ['interface'] });
  });

  it('writes JUnit XML with one testcase per contract, failures and skips', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kit-')), 'contracts.xml');
    const broken = wrap(appFetch(), {
      response: (method, url, body) =>
        method === 'GET' && url.pathname === '/v1/tasks' ? { ...body, has_more: 'no <way> & "never"' } : undefined,
    });
    const { code, out } = await cli(
      [
        '--base-url',
        'http://kit.test',
        '--api-key',
        keys().apiKey,
        '--grep',
        'GET /v1/tasks',
        '--reporter',
        'junit',
        '--output',
        file,
      ],
      broken,
    );
    expect(code).toBe(1);
    expect(out).toMatch(/FAIL/);
    const xml = readFileSync(file, 'utf8');
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites')).toBe(true);
    expect((xml.match(/<testcase /g) ?? []).length).toBe(
      selectContracts({ grep: 'GET /v1/tasks', tags: ['interface', 'control'] }).length,
    );
    expect(xml).toMatch(/<failure message="[^"<]*">/);
    expect(xml).toContain('&lt;way&gt; &amp; \\&quot;never\\&quot;');
    expect(xml).not.toMatch(/<way>/);
  });

  it('escapes XML and drops characters XML cannot carry', () => {
    expect(xmlEscape(`a<b>&"c"'d'\u0001e`)).toBe('a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;e');
  });

  it('stops with one line and exit 2 when nothing answers on the port', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const { code, out, err } = await cli([
      '--base-url',
      `http://127.0.0.1:${port}`,
      '--api-key',
      'test_x',
      '--retries',
      '0',
    ]);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+ .*ECONNREFUSED/);
  });

  it('stops with exit 2 when the key is refused', async () => {
    const refusing: Fetch = async () => new Response('{"status_code":401,"error":"no"}', { status: 401 });
    const { code, err } = await cli(['--base-url', 'http://kit.test', '--api-key', 'test_x'], refusing);
    expect(code).toBe(2);
    expect(err).toMatch(/refused the API key/);
  });

  it('--bail stops after the first failure', async () => {
    const broken = wrap(appFetch(), {
      response: (method, url, body) =>
        method === 'GET' && url.pathname === '/v1/tasks' ? { ...body, offset: undefined } : undefined,
    });
    const { code, out } = await cli(
      ['--base-url', 'http://kit.test', '--api-key', keys().apiKey, '--grep', 'GET /v1/tasks', '--bail'],
      broken,
    );
    expect(code).toBe(1);
    expect(out.match(/^(FAIL|SETUP)/gm)).toHaveLength(1);
    expect(out).toMatch(/^\d+ passed, 1 failed, 0 setup failed, 0 skipped$/m);
  });
});

describe('control plane capabilities', () => {
  it('skip, with the reason, only the contracts needing a route the target does not list', async () => {
    const noAccept = wrap(appFetch(), {
      request: (_method, url) =>
        url.pathname === '/_mock/teams/accept'
          ? { answer: Response.json({ status_code: 404, error: 'Not found' }, { status: 404 }) }
          : undefined,
      response: (method, url, body) => {
        if (method === 'GET' && url.pathname === '/_mock/openapi.json') delete body.paths['/_mock/teams/accept'];
        return body;
      },
    });
    const results = await run(noAccept, ['interface', 'control'], 'studio');
    const skipped = results.filter((r) => r.status === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    for (const r of skipped) expect(r.message).toMatch(/has no POST \/_mock\/teams\/accept/);
    expect(failed(results)).toEqual([]);
    expect(results.filter((r) => r.status === 'passed').length).toBeGreaterThan(0);
  });

  it('never reset, import or move the clock on keys not marked disposable', async () => {
    const k = keys();
    const touched: string[] = [];
    const inner = appFetch();
    const spy: Fetch = async (input, init = {}) => {
      const url = new URL(String(input));
      if (/^\/_mock\/(reset|state|clock\/advance)$/.test(url.pathname) && init.method !== 'GET')
        touched.push(url.pathname);
      return inner(input, init);
    };
    const results = await runContracts({
      baseUrl: 'http://kit.test',
      ...k,
      fetch: spy,
      tags: ['interface', 'labelmock', 'control'],
      waitMs: 1500,
    });
    expect(touched).toEqual([]);
    expect(failed(results)).toEqual([]);
    expect(results.filter((r) => /--disposable-key/.test(r.message)).length).toBeGreaterThan(3);
  }, 60_000);
});

describe('failure reports', () => {
  it('show the request, its body with keys redacted, the status and the answer', async () => {
    const broken = wrap(appFetch(), {
      response: (method, url, body) =>
        method === 'POST' && url.pathname.endsWith('/setParams') ? { ...body, param_history: 'gone' } : undefined,
    });
    const result = await runOne(broken, ['interface'], 'setParams appends versions');
    expect(result.status).toBe('failed');
    const failure = present(result.failures[0], 'the failure');
    expect(failure.exchange).toMatchObject({ method: 'POST', status: 200 });
    expect(failure.exchange?.path).toMatch(/^\/v1\/projects\/.+\/setParams$/);
    expect(failure.exchange?.requestBody).toContain('"instruction":"v0"');
    expect(failure.exchange?.responseBody).toContain('"param_history":"gone"');
  });

  it('redact keys and secret-looking fields', () => {
    expect(redact('{"callback_auth_key":"s3cret","note":"test_abc"}', ['test_abc'])).toBe(
      '{"callback_auth_key":"<redacted>","note":"<redacted key>"}',
    );
  });

  it('name the cause of a network error', async () => {
    const dropping: Fetch = async (input) => {
      if (String(input).includes('limit=1')) return new Response('{"docs":[]}', { status: 200 });
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
      });
    };
    const result = await runOne(dropping, ['interface'], 'GET /v1/tasks lists newest first');
    expect(result.status).toBe('setup-failed');
    expect(result.failures[0]?.exchange?.error).toMatch(/network error: fetch failed: ECONNRESET socket hang up/);
  });
});

describe('no masking', () => {
  it('a field missing from every task fails only the shape contracts, not all that need a task', async () => {
    const noAudits = wrap(appFetch(), {
      response: (_method, url, body) => {
        const strip = (task: any) => {
          if (task && typeof task === 'object' && typeof task.task_id === 'string') delete task.audits;
        };
        if (/^\/v1\/tasks?\b/.test(url.pathname)) {
          strip(body);
          for (const doc of body?.docs ?? []) strip(doc);
        }
        return body;
      },
    });
    const results = await run(noAudits, ['interface']);
    const names = failed(results).map((r) => r.name);
    expect(names.length).toBeGreaterThan(0);
    expect(names.length).toBeLessThan(6);
    expect(names).toContain('POST /v1/task/imageannotation answers 200 with a pending task of the Task table shape');
  });

  it('a contract naming several rules reports each broken one, and only those', async () => {
    // setParams that ignores patch: the version replaces everything.
    const ignoresPatch = wrap(appFetch(), {
      request: (method, url, body) =>
        method === 'POST' && url.pathname.endsWith('/setParams') && body?.patch
          ? { body: { ...body, patch: undefined } }
          : undefined,
    });
    const result = await runOne(ignoresPatch, ['interface'], 'setParams appends versions');
    expect(result.status).toBe('failed');
    const rules = result.failures.map((f) => f.rule);
    expect(rules).toContain('patch keeps the fields it does not mention');
    expect(rules).not.toContain('each setParams appends a param_history entry, versions counting from 0');
    expect(rules).not.toContain('patch sets the fields it mentions');
  });
});

/** Task types, routes and surfaces the client tag covers: an implementation of the interface alone has none. */
const CLIENT_ONLY = new RegExp(
  [
    '^/v1/task/(documentmodel|videoboxannotation|videocuboidannotation|sensorfusion|chat\\w*|multi\\w+)$',
    '^/v1/(evaluation|training)_tasks/',
    '/taskTemplates$',
    '^/v2/',
  ].join('|'),
);
const LENIENT_BOOLEANS = ['limited_response', 'include_attachment_url'];
const TASK_ID = /\b[0-9a-f]{24}\b/g;
const notFound = () => Response.json({ status_code: 404, error: 'Not found' }, { status: 404 });

/** A param_history entry laid out another way: the parameters under `params`, beside the named three. */
const nestHistory = (entry: any) => {
  const { version, created_at, instruction, ...params } = entry;
  return { version, created_at, instruction, params };
};

/**
 * Behaviours where the interface is silent, done differently from labelmock: --tags interface must
 * not fail. Each is a way another correct implementation could read the interface.
 */
const independent = (controlPlane: boolean): Fetch =>
  wrap(appFetch(), {
    request: (method, url, body) => {
      // Only what the interface specifies: no extra task types, quality tasks, templates or v2.
      if (CLIENT_ONLY.test(url.pathname)) return { answer: notFound() };
      // No control plane at all, or labelmock's.
      if (!controlPlane && url.pathname.startsWith('/_mock')) return { answer: notFound() };
      // 404 instead of 405, no Allow header.
      if (method === 'POST' && url.pathname === '/v1/tasks') return { answer: notFound() };
      const next = new URL(url);
      // Clamp limit instead of refusing it.
      if (method === 'GET' && url.pathname === '/v1/tasks' && Number(url.searchParams.get('limit')) > 100)
        next.searchParams.set('limit', '100');
      // Lenient booleans: anything but true is false.
      for (const key of LENIENT_BOOLEANS)
        if (next.searchParams.has(key) && !/^true$/i.test(next.searchParams.get(key) ?? ''))
          next.searchParams.set(key, 'false');
      // status takes one value: a comma list is refused.
      if (method === 'GET' && url.pathname === '/v1/tasks' && url.searchParams.get('status')?.includes(','))
        return { answer: Response.json({ status_code: 400, error: 'Bad status' }, { status: 400 }) };
      if (next.href !== url.href) return { url: next };
      // Ignore unknown body keys instead of refusing them.
      if (method === 'POST' && url.pathname.startsWith('/v1/task/') && body && 'frobnication_level' in body)
        return { body: { ...body, frobnication_level: undefined } };
      // Any string is taken as an e-mail address.
      if (url.pathname === '/v1/teams/invite' && Array.isArray(body?.emails))
        return {
          body: { ...body, emails: body.emails.map((e: string) => (e.includes('@') ? e : `${e}@example.com`)) },
        };
      // A sanitizer that removes a script's tags but keeps its text.
      if (method === 'POST' && url.pathname === '/v1/task/textcollection' && JSON.stringify(body).includes('<script>'))
        return { body: JSON.parse(JSON.stringify(body).replace(/<script>(.*?)<\/script>/g, '$1')) };
      return undefined;
    },
    response: (method, url, body, requestBody) => {
      // Other wording that names no field; a 409 still points at the task (the interface says so)
      // and the unknown-task 404 keeps the message the real service is recorded answering.
      if (body && typeof body === 'object' && typeof body.error === 'string' && body.status_code !== 404) {
        const ids = body.error.match(TASK_ID) ?? [];
        return { ...body, error: `Request failed.${ids.length > 0 ? ` See ${ids.join(', ')}.` : ''}` };
      }
      // The invitation answers the invitees, not the whole team.
      if (url.pathname === '/v1/teams/invite' && Array.isArray(body))
        return body.filter((m) => requestBody?.emails?.includes(m.email));
      // Another param_history layout.
      const projects = Array.isArray(body) ? body : [body];
      for (const project of projects)
        if (Array.isArray(project?.param_history)) project.param_history = project.param_history.map(nestHistory);
      // offset means something else here, and priority is not echoed.
      if (url.pathname === '/v1/tasks' && body?.docs) {
        for (const doc of body.docs) delete doc.priority;
        return { ...body, offset: 0 };
      }
      // A default frame_rate is applied, not written into params.
      if (method === 'POST' && url.pathname === '/v1/task/videoplaybackannotation' && !('frame_rate' in requestBody))
        delete body?.params?.frame_rate;
      if (body?.task_id) delete body.priority;
      return body;
    },
  });

describe('verdicts', () => {
  it('an implementation that differs only where the interface is silent passes --tags interface,control', async () => {
    const results = await run(independent(false), ['interface', 'control']);
    expect(failed(results).map((r) => `${r.name}: ${r.message}`)).toEqual([]);
    const skipped = results.filter((r) => r.status === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.every((r) => /control plane|--disposable-key/.test(r.message))).toBe(true);
    // labelmock's choices inside interface contracts were passed over, and the result says which.
    const unchecked = results.flatMap((r) => r.unchecked);
    expect(unchecked).toContain('the error message names attachment');
    expect(unchecked).toContain("each param_history entry holds its version's parameters beside instruction");
    const passedUnchecked = present(
      results.find((r) => r.status === 'passed' && r.unchecked.length > 0),
      'a passed result with rules not checked',
    );
    expect(formatPretty(passedUnchecked)).toMatch(/ ms; not checked without --tags labelmock: .+\)$/);
  }, 60_000);

  it('the same implementation with a control plane passes every interface contract that needs one too', async () => {
    const results = await run(independent(true), ['interface', 'control']);
    expect(failed(results).map((r) => `${r.name}: ${r.message}`)).toEqual([]);
    expect(results.filter((r) => r.status === 'skipped')).toEqual([]);
  }, 60_000);

  it("with --tags labelmock too, the same implementation fails labelmock's choices, marked as such", async () => {
    const result = await runOne(independent(false), ['interface', 'labelmock'], 'imageannotation without attachment');
    expect(result.status).toBe('failed');
    expect(result.failures.map((f) => f.kind)).toEqual(['labelmock']);
    expect(result.unchecked).toEqual([]);
    expect(formatPretty(result)).toMatch(/\(labelmock's choice\): .*expected a message mentioning "attachment"/);
    expect(formatPretty(result)).toContain('cites: interface: POST /v1/task/imageannotation');
  });

  const broken: [string, () => Fetch][] = [
    [
      'callbacks without the scale-callback-auth header',
      () =>
        appFetch({
          fetch: (input, init = {}) => {
            const headers = new Headers(init.headers);
            headers.delete('scale-callback-auth');
            return fetch(input, { ...init, headers });
          },
        }),
    ],
    [
      'callback retries that never run',
      () => {
        const sent = new Set<string>();
        return appFetch({
          fetch: (input, init = {}) => {
            const key = `${String(input)} ${String(init.body).slice(0, 60)}`;
            if (sent.has(key)) return Promise.resolve(new Response('ok', { status: 200 }));
            sent.add(key);
            return fetch(input, init);
          },
        });
      },
    ],
    [
      'has_more true on an exactly full last page',
      () =>
        wrap(appFetch(), {
          response: (method, url, body) => {
            if (method !== 'GET' || url.pathname !== '/v1/tasks' || !body?.docs) return undefined;
            const limit = Number(url.searchParams.get('limit') ?? 100);
            if (body.docs.length === limit && !body.has_more) return { ...body, has_more: true, next_token: 'end' };
            return undefined;
          },
        }),
    ],
    [
      'setParams ignoring patch',
      () =>
        wrap(appFetch(), {
          request: (method, url, body) =>
            method === 'POST' && url.pathname.endsWith('/setParams') && body?.patch
              ? { body: { ...body, patch: undefined } }
              : undefined,
        }),
    ],
    [
      'setParams patch merging objects deeply',
      () => {
        const inner = appFetch();
        const deep = (a: any, b: any): any => {
          if (!a || !b || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(b)) return b;
          const out = { ...a };
          for (const [k, v] of Object.entries(b)) out[k] = deep(a[k], v);
          return out;
        };
        return async (input, init = {}) => {
          const url = new URL(String(input));
          let body: any;
          try {
            body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
          } catch {
            body = undefined;
          }
          if (init.method === 'POST' && url.pathname.endsWith('/setParams') && body?.patch) {
            const projectPath = url.pathname.replace(/\/setParams$/, '');
            const project = await (await inner(new URL(projectPath, url).toString(), { headers: init.headers })).json();
            const { version: _v, created_at: _c, ...latest } = project.param_history.at(-1);
            const merged = deep(latest, { ...body, patch: undefined });
            return inner(String(input), { ...init, body: JSON.stringify(merged) });
          }
          return inner(input, init);
        };
      },
    ],
    [
      'videoannotation tasks refused',
      () =>
        wrap(appFetch(), {
          request: (method, url) =>
            method === 'POST' && url.pathname === '/v1/task/videoannotation'
              ? { answer: Response.json({ status_code: 400, error: 'attachments: invalid' }, { status: 400 }) }
              : undefined,
        }),
    ],
    [
      'annotation_attributes with conditions refused',
      () =>
        wrap(appFetch(), {
          request: (method, url, body) =>
            method === 'POST' &&
            url.pathname.startsWith('/v1/task/') &&
            JSON.stringify(body ?? {}).includes('label_condition')
              ? { answer: Response.json({ status_code: 400, error: 'conditions: unsupported' }, { status: 400 }) }
              : undefined,
        }),
    ],
    [
      'PUT tags replacing instead of adding',
      () =>
        wrap(appFetch(), {
          request: (method, url) =>
            method === 'PUT' && url.pathname.endsWith('/tags') ? { method: 'POST' } : undefined,
        }),
    ],
    [
      'cancel of a completed task answering 200',
      () =>
        wrap(appFetch(), {
          response: (method, url, body) =>
            method === 'POST' && url.pathname.endsWith('/cancel') && body?.status_code === 400
              ? Response.json({ task_id: url.pathname.split('/')[3], status: 'completed' })
              : undefined,
        }),
    ],
    [
      'limited_response ignored',
      () =>
        wrap(appFetch(), {
          request: (method, url) => {
            if (method !== 'GET' || !url.searchParams.has('limited_response')) return undefined;
            const next = new URL(url);
            next.searchParams.delete('limited_response');
            return { url: next };
          },
        }),
    ],
    [
      'callback_completed missing from tasks',
      () =>
        wrap(appFetch(), {
          response: (_method, _url, body) => {
            if (body?.task_id) delete body.callback_completed;
            return body;
          },
        }),
    ],
    [
      'unique_id freed by a cancel without clear_unique_id',
      () =>
        wrap(appFetch(), {
          request: (method, url) => {
            if (method !== 'POST' || !url.pathname.endsWith('/cancel')) return undefined;
            const next = new URL(url);
            next.searchParams.set('clear_unique_id', 'true');
            return { url: next };
          },
        }),
    ],
    [
      'batch status counting error tasks as canceled',
      () =>
        wrap(appFetch(), {
          response: (method, url, body) =>
            method === 'GET' && /^\/v1\/batches\/[^/]+\/status$/.test(url.pathname) && body?.status
              ? { ...body, canceled: body.canceled + body.error, error: 0 }
              : undefined,
        }),
    ],
    [
      'a project made with the live key usable from the test key',
      () => {
        const inner = appFetch();
        return async (input, init = {}) => {
          const url = new URL(String(input));
          if (init.method === 'POST' && url.pathname === '/v1/projects') {
            const headers = new Headers(init.headers);
            const user = Buffer.from((headers.get('authorization') ?? '').slice(6), 'base64').toString();
            if (user.startsWith('live_')) {
              const testKey = `test_${user.slice(5).replace(/:$/, '')}`;
              headers.set('authorization', basic(testKey));
              // The live key's account answers the same project to the test key: one mode for both.
              return inner(input, { ...init, headers });
            }
          }
          return inner(input, init);
        };
      },
    ],
    [
      'unique_id unique per project only',
      () =>
        wrap(appFetch(), {
          request: (method, url, body) =>
            method === 'POST' && url.pathname.startsWith('/v1/task/') && body?.unique_id && body?.project
              ? { body: { ...body, unique_id: `${body.project}~${body.unique_id}` } }
              : undefined,
          response: (_method, _url, body) => {
            if (typeof body?.unique_id === 'string') body.unique_id = body.unique_id.replace(/^[^~]*~/, '');
            return body;
          },
        }),
    ],
    [
      'invitees listed with the role they will have',
      () =>
        wrap(appFetch(), {
          response: (_method, url, body) =>
            url.pathname.startsWith('/v1/teams') && Array.isArray(body)
              ? body.map((m) => (m.role === 'invited' ? { ...m, role: 'member' } : m))
              : undefined,
        }),
    ],
    [
      'a label object without choice accepted',
      () =>
        wrap(appFetch(), {
          request: (method, url, body) => {
            const box = body?.geometries?.box;
            if (method !== 'POST' || url.pathname !== '/v1/task/imageannotation' || !box) return undefined;
            const named = box.objects_to_annotate?.map((e: any) =>
              typeof e === 'object' && !e.choice ? { ...e, choice: 'x' } : e,
            );
            return {
              body: { ...body, geometries: { ...body.geometries, box: { ...box, objects_to_annotate: named } } },
            };
          },
        }),
    ],
    [
      'named entity spans whose text is not the text between start and end',
      () =>
        wrap(appFetch(), {
          response: (_method, _url, body) => {
            for (const a of body?.response?.annotations ?? [])
              if (typeof a.text === 'string' && typeof a.start === 'number') a.text = a.text.toLowerCase();
            return body;
          },
        }),
    ],
  ];

  it.each(broken)(
    'flags a target with %s',
    async (_what, make) => {
      const results = await run(make(), ['interface', 'control']);
      // KIT_REPORT=file lists, per breakage, the contracts that flagged it.
      if (process.env.KIT_REPORT)
        appendFileSync(
          process.env.KIT_REPORT,
          `${_what}: ${failed(results)
            .map((r) => r.name)
            .join(' | ')}\n`,
        );
      expect(failed(results).length).toBeGreaterThan(0);
    },
    60_000,
  );
});
