import { Hono } from 'hono';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { describe, expect, it } from 'vitest';
import { allowedMethods } from '../src/http/allowed-methods.js';
import { makeApp } from './helpers.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

describe('allowedMethods', () => {
  it("names, on every route path of the app, the methods Hono's methodNotAllowed middleware names", async () => {
    const { app } = makeApp();
    const allowedOn = allowedMethods(app);
    // Hono's middleware over the same routes, each answering 200.
    const reference = new Hono();
    reference.use(methodNotAllowed({ app: reference }));
    for (const route of app.routes) {
      if (route.method !== 'ALL') reference.on(route.method, route.path, (c) => c.body(null, 200));
    }
    const paths = [...new Set(app.routes.map((route) => route.path.replace(/:\w+/g, 'x')))];
    expect(paths.length).toBeGreaterThan(40);
    let refusals = 0;
    for (const path of [...paths, '/nowhere']) {
      for (const method of METHODS) {
        const res = await reference.request(path, { method });
        if (res.status !== 405) continue;
        refusals += 1;
        expect([method, path, allowedOn(path).join(', ')]).toEqual([method, path, res.headers.get('allow')]);
      }
    }
    expect(refusals).toBeGreaterThan(100);
  });

  it('answers 405 with the Allow header for a method a path lacks, 404 for a path without routes', async () => {
    const t = makeApp();
    const refused = await t.call('DELETE', '/v1/tasks');
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe('GET, HEAD');
    expect(refused.body.error).toBe('Method DELETE is not allowed on /v1/tasks; allowed: GET, HEAD');
    expect((await t.call('DELETE', '/v1/nothing-here')).status).toBe(404);
  });
});
