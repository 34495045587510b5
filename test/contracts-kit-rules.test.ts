import { afterAll, describe, expect, it } from 'vitest';
import { type ContractResult, runContracts } from '../contracts/kit/runner.js';
import '../contracts/suite/index.js';
import { createApp, type MockApp } from '../src/app.js';
import { present } from './helpers.js';

/**
 * The contract kit against targets that break on purpose: a contract naming several rules reports
 * every broken one in one run, and each live/test separation contract fails a target that leaks.
 */

const apps: MockApp[] = [];
afterAll(() => {
  for (const app of apps) app.dispose();
});

type Fetch = typeof fetch;

function appFetch(): Fetch {
  const app = createApp();
  apps.push(app);
  return async (input, init) => app.request(input instanceof Request ? input : String(input), init);
}

let keyCount = 0;

/** Runs the one contract named exactly `name` against `fetch`, every key a fresh disposable tenant. */
async function runNamed(fetch: Fetch, name: string): Promise<ContractResult> {
  keyCount += 1;
  const id = `${Date.now().toString(36)}r${keyCount}`;
  const k = { apiKey: `test_kit_${id}`, otherApiKey: `test_kit_other_${id}`, liveApiKey: `live_kit_${id}` };
  const results = await runContracts({
    baseUrl: 'http://kit.test/v1',
    ...k,
    disposableKeys: [k.apiKey, k.otherApiKey],
    fetch,
    tags: ['interface', 'labelmock', 'control'],
    grep: name,
    waitMs: 1500,
  });
  return present(
    results.find((r) => r.name === name),
    `the result of "${name}"`,
  );
}

/** A fetch where `change` may answer instead of the target, or alter the JSON answer it gives. */
function alter(
  inner: Fetch,
  change: (method: string, url: URL, body: any, requestBody: any) => Response | undefined | 'keep' | object,
): Fetch {
  return async (input, init = {}) => {
    const url = new URL(String(input));
    const method = (init.method ?? 'GET').toUpperCase();
    let requestBody: any;
    try {
      requestBody = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    } catch {
      requestBody = undefined;
    }
    const res = await inner(input, init);
    const text = await res.text();
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      return new Response(text, { status: res.status, headers: res.headers });
    }
    const out = change(method, url, body, requestBody);
    if (out instanceof Response) return out;
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    return new Response(JSON.stringify(out === undefined || out === 'keep' ? body : out), {
      status: res.status,
      headers,
    });
  };
}

const refuse = (status: number, error: string) => Response.json({ status_code: status, error }, { status });

/** Failed rule names of a result (setup failures have none). */
const brokenRules = (result: ContractResult) => result.failures.filter((f) => !f.setup).map((f) => f.rule);

/**
 * A target where the live key acts as the test key on the requests `leaks` picks: one mode for
 * both, so whatever the test key made there is seen or usable from the live key.
 */
function liveActsAsTest(leaks: (method: string, url: URL) => boolean): Fetch {
  const inner = appFetch();
  return async (input, init = {}) => {
    const url = new URL(String(input));
    const headers = new Headers(init.headers);
    const user = Buffer.from((headers.get('authorization') ?? '').slice(6), 'base64').toString();
    if (!user.startsWith('live_') || !leaks((init.method ?? 'GET').toUpperCase(), url)) return inner(input, init);
    headers.set('authorization', `Basic ${Buffer.from(`test_${user.slice(5)}`).toString('base64')}`);
    return inner(input, { ...init, headers });
  };
}

describe('live and test separation contracts', () => {
  const separation: [string, (method: string, url: URL) => boolean][] = [
    [
      "GET /v1/task/{id} and GET /v1/tasks with the account's live key see none of its test tasks",
      (method, url) => method === 'GET' && /^\/v1\/tasks?(\/|$)/.test(url.pathname),
    ],
    [
      'a batch created with the test key takes no live tasks, and one created with the live key no test tasks',
      (method, url) => method === 'POST' && /^\/v1\/(projects|batches)$/.test(url.pathname),
    ],
    [
      "a file imported with the test key is neither listed for nor usable by the live key (tenant's files)",
      (_method, url) => url.pathname === '/v1/files' || url.pathname.startsWith('/v1/task/'),
    ],
    [
      "a teammate invited with the test key is not on the live key's team (tenant's team)",
      (method, url) => method === 'GET' && url.pathname === '/v1/teams',
    ],
  ];

  it.each(separation)('pass on labelmock and fail a target that leaks: %s', async (name, leaks) => {
    expect((await runNamed(appFetch(), name)).status).toBe('passed');
    const result = await runNamed(liveActsAsTest(leaks), name);
    expect(result.status, result.message).toBe('failed');
  });

  it('the batch separation contract reports both directions when both leak', async () => {
    const name =
      'a batch created with the test key takes no live tasks, and one created with the live key no test tasks';
    const result = await runNamed(
      liveActsAsTest((method, url) => method === 'POST' && /^\/v1\/(projects|batches|task\/)/.test(url.pathname)),
      name,
    );
    expect(brokenRules(result)).toEqual([
      'a test key cannot create a task in a batch made with the live key',
      'the live key cannot create a task in a batch made with the test key',
    ]);
  });
});

const ok200 = () => Response.json([], { status: 200 });

describe('contracts naming several rules', () => {
  const twoBroken: [string, () => Fetch, string[]][] = [
    [
      'POST /v1/teams/invite with a malformed e-mail, an unknown role or no emails answers 400',
      // Takes any role and a missing emails list; still refuses a malformed address.
      () =>
        alter(appFetch(), (method, url, _body, sent) =>
          method === 'POST' && url.pathname === '/v1/teams/invite' && (sent?.team_role === 'owner' || !sent?.emails)
            ? ok200()
            : undefined,
        ),
      ['an unknown role answers 400 naming team_role', 'no emails answers 400 naming emails'],
    ],
    [
      'POST /v1/teams/set_role refuses administrators (400), unknown addresses (404) and unknown roles (400)',
      // Every 400 of set_role becomes a 200; the 404 stays.
      () =>
        alter(appFetch(), (method, url, body) =>
          method === 'POST' && url.pathname === '/v1/teams/set_role' && body?.status_code === 400 ? ok200() : undefined,
        ),
      ["an administrator's role cannot change (400)", 'an unknown role answers 400 naming team_role'],
    ],
    [
      'POST /v1/studio/assignments/add refuses unknown teammates (404), invitees (400) and unknown projects (404)',
      // Every 404 of assignments/add becomes a 200; the 400 for an invitee stays.
      () =>
        alter(appFetch(), (method, url, body) =>
          method === 'POST' && url.pathname === '/v1/studio/assignments/add' && body?.status_code === 404
            ? Response.json({}, { status: 200 })
            : undefined,
        ),
      ['an address not on the team answers 404', 'an unknown project answers 404'],
    ],
    [
      'POST /v1/batches on a plain project answers an in_progress batch with its fields',
      // Answers a new batch without metadata, and no batch can be read back.
      () =>
        alter(appFetch(), (method, url, body) => {
          if (method === 'POST' && url.pathname === '/v1/batches') return { ...body, metadata: undefined };
          if (method === 'GET' && /^\/v1\/batches\/[^/]+$/.test(url.pathname)) return refuse(404, 'Batch not found');
          return undefined;
        }),
      [
        'the new batch names its project, is in_progress and has empty metadata',
        'GET /v1/batches/{name} reads the batch back',
      ],
    ],
    [
      'POST /v1/task/lidarannotation breaking its rules answers 400 naming the field',
      // Takes a pcd attachment_type and a zero labeling_sample_rate; still refuses the other cases.
      () =>
        alter(appFetch(), (method, url, _body, sent) =>
          method === 'POST' &&
          url.pathname === '/v1/task/lidarannotation' &&
          (sent?.attachment_type === 'pcd' || sent?.labeling_sample_rate === 0)
            ? Response.json({ task_id: 'a'.repeat(24), type: 'lidarannotation', status: 'pending' })
            : undefined,
        ),
      ['case 2 answers 400 naming attachment_type', 'case 5 answers 400 naming labeling_sample_rate'],
    ],
    [
      'POST /v1/task/videoannotation answers 200 with frames and geometries in params',
      // Drops two of the params it was sent.
      () =>
        alter(appFetch(), (method, url, body) =>
          method === 'POST' && url.pathname === '/v1/task/videoannotation' && body?.params
            ? { ...body, params: { ...body.params, geometries: undefined, frame_rate: undefined } }
            : undefined,
        ),
      ['params.geometries is the value sent', 'params.frame_rate is the value sent'],
    ],
  ];

  it.each(twoBroken)('report both broken rules in one run: %s', async (name, make, rules) => {
    expect((await runNamed(appFetch(), name)).status).toBe('passed');
    const result = await runNamed(make(), name);
    expect(result.status, result.message).toBe('failed');
    expect(brokenRules(result)).toEqual(rules);
    for (const failure of result.failures) expect(failure.exchange).toBeDefined();
  });
});
