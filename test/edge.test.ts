import { describe, expect, it } from 'vitest';
import { ERROR_CATALOG } from '../src/errors/index.js';
import { basic, imageRequest, KEY, makeApp } from './helpers.js';

describe('auth', () => {
  it('GET /v1/tasks without a key is a 401 with the error body', async () => {
    const t = makeApp();
    const res = await t.call('GET', '/v1/tasks', { key: null });
    expect(res.status).toBe(401);
    expect(res.body.status_code).toBe(401);
    expect(res.body.error).toMatch(/Unauthorized/);
    expect(res.headers.get('www-authenticate')).toMatch(/Basic/);
  });

  const invalid = ['secret', 'test_', 'prod_acme', `test_${'a'.repeat(129)}`, 'acme|staging', 'test_a b'];
  for (const key of invalid) {
    it(`GET /v1/tasks with the key "${key.slice(0, 20)}" is a 401 saying what keys look like`, async () => {
      const t = makeApp();
      const res = await t.call('GET', '/v1/tasks', { key });
      expect(res.status).toBe(401);
      expect(res.body.error).toMatch(/keys look like test_<name> or live_<name>/);
    });
  }

  it('a 401 says its cause: no key, a header that names no key, a key not in the keys file', async () => {
    const t = makeApp();
    expect((await t.call('GET', '/v1/tasks', { key: null })).body.error).toMatch(/no API key: .*curl -u/);
    const odd = await t.app.request('/v1/tasks', { headers: { authorization: 'Digest username="x"' } });
    expect(((await odd.json()) as { error: string }).error).toMatch(/neither Basic .* nor a bare key/);
    const strict = makeApp({ config: { keys: [{ key: 'sk-123', account: 'acme', mode: 'live' }] } });
    const unknown = await strict.call('GET', '/v1/tasks', { key: 'test_acme' });
    expect(unknown.body.error).toMatch(/not in the keys file .*--keys/);
    expect(unknown.body.error).not.toMatch(/test_<name>/);
  });

  it('GET /v1/tasks accepts Basic, Bearer, a bare key and the <id>|test form', async () => {
    const t = makeApp();
    const headers = [basic(KEY), `Bearer ${KEY}`, KEY, basic('acme|test')];
    for (const authorization of headers) {
      const res = await t.app.request('/v1/tasks', { headers: { authorization } });
      expect(res.status, authorization).toBe(200);
    }
  });

  it('test_<id> and <id>|test are the same tenant; live_<id> is another', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/task/imageannotation', { body: imageRequest() });
    expect((await t.call('GET', `/v1/task/${res.body.task_id}`, { key: 'acme|test' })).status).toBe(200);
    expect((await t.call('GET', `/v1/task/${res.body.task_id}`, { key: 'live_acme' })).status).toBe(404);
    expect((await t.call('GET', `/v1/task/${res.body.task_id}`, { key: 'test_other' })).status).toBe(404);
  });

  it("a 401 to the inspector's own calls has no WWW-Authenticate (no sign-in dialog); others keep it", async () => {
    const t = makeApp();
    const own = await t.call('GET', '/v1/tasks', { key: 'prod_acme', headers: { 'x-labelmock-inspector': 'tab' } });
    expect(own.status).toBe(401);
    expect(own.headers.get('www-authenticate')).toBeNull();
    const other = await t.call('GET', '/v1/tasks', { key: 'prod_acme' });
    expect(other.headers.get('www-authenticate')).toMatch(/Basic/);
  });

  it('strict mode accepts only the keys of the keys file', async () => {
    const t = makeApp({ config: { keys: [{ key: 'sk-123', account: 'acme', mode: 'live' }] } });
    expect((await t.call('GET', '/v1/tasks', { key: 'sk-123' })).status).toBe(200);
    expect((await t.call('GET', '/v1/tasks', { key: 'test_acme' })).status).toBe(401);
    const created = await t.call('POST', '/v1/task/imageannotation', { key: 'sk-123', body: imageRequest() });
    expect(created.body.is_test).toBe(false);
  });

  it('/_mock routes need a key too', async () => {
    const t = makeApp();
    expect((await t.call('GET', '/_mock/clock', { key: null })).status).toBe(401);
  });
});

describe('errors', () => {
  it('malformed JSON is a 400 naming the problem', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/task/imageannotation', { raw: '{"attachment": ' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/Request body is not valid JSON/);
  });

  it('a non-JSON body under a content type neither JSON nor a form is a 415', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/task/imageannotation', {
      raw: 'attachment=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ status_code: 415, error: expect.stringMatching(/must be JSON/) });
  });

  it('a JSON body sent with a form content type (curl -d) is accepted', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/task/imageannotation', {
      raw: JSON.stringify(imageRequest()),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
  });

  it('a JSON body that is not an object is a 400', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/task/imageannotation', { raw: '"text"' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/"body" must be an object \(got string\)/);
  });

  it('an unknown route is a 404 with the error body', async () => {
    const t = makeApp();
    const res = await t.call('GET', '/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status_code: 404, error: expect.stringMatching(/No route GET \/v1\/nothing-here/) });
  });

  it('GET /tasks (a base URL without /v1) is a 404 suggesting /v1/tasks; other paths suggest nothing', async () => {
    const t = makeApp();
    const slip = await t.call('GET', '/tasks');
    expect([slip.status, slip.body.error]).toEqual([404, expect.stringContaining('did you mean /v1/tasks?')]);
    const other = await t.call('GET', '/nothing-here');
    expect([other.status, other.body.error]).toEqual([404, expect.not.stringContaining('did you mean')]);
    // Only a route of the same method is suggested.
    expect((await t.call('DELETE', '/tasks')).body.error).not.toContain('did you mean');
  });

  it('a wrong method is a 405 with an Allow header', async () => {
    const t = makeApp();
    const res = await t.call('PATCH', '/v1/tasks');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('GET');
    expect(res.body.status_code).toBe(405);
  });

  it('an oversize body is a 413, declared or streamed', async () => {
    const t = makeApp({ config: { maxBodyBytes: 1000 } });
    const big = JSON.stringify(imageRequest({ instruction: 'x'.repeat(2000) }));
    const res = await t.call('POST', '/v1/task/imageannotation', { raw: big });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ status_code: 413, error: 'Request body is larger than the limit of 1000 bytes' });
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const streamed = await t.app.request('/v1/task/imageannotation', {
      method: 'POST',
      body: stream,
      headers: { authorization: basic(KEY) },
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it('deeply nested or odd JSON never crashes the server', async () => {
    const t = makeApp();
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const bodies = [
      deep,
      'null',
      '[]',
      '123',
      '{"geometries": {"box": null}}',
      '{"geometries": {"__proto__": {"x": 1}}}',
      '{"metadata": {"constructor": {"prototype": 1}}}',
    ];
    for (const raw of bodies) {
      const res = await t.call('POST', '/v1/task/imageannotation', { raw });
      expect(res.status, raw.slice(0, 40)).toBeGreaterThanOrEqual(400);
      expect(res.status, raw.slice(0, 40)).toBeLessThan(500);
    }
  });

  it('the catalog gives each kind a distinct 4xx or 5xx status', () => {
    const statuses = Object.values(ERROR_CATALOG).map((entry) => entry.status);
    expect(new Set(statuses).size).toBe(statuses.length);
    expect(statuses.every((s) => s >= 400 && s < 600)).toBe(true);
  });
});
