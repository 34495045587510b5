import { describe, expect, it } from 'vitest';
import { makeApp } from './helpers.js';

/** Every URL the page names: attributes and the strings of its inline configuration. */
function urlsIn(html: string): string[] {
  // Each pattern's one group is required, so m[1] is always there.
  const attributes = [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1] ?? '');
  const strings = [...html.matchAll(/"url":"([^"]*)"/g)].map((m) => m[1] ?? '');
  return [...attributes, ...strings];
}

describe('docs page', () => {
  it('GET /docs answers the HTML page without a key, naming only this server and data: URLs', async () => {
    const res = await makeApp().call('GET', '/docs', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.body).toContain('Scalar.createApiReference');
    const urls = urlsIn(res.body);
    expect(urls).toEqual(expect.arrayContaining(['/openapi.json', '/openapi-v2.json', '/_mock/openapi.json']));
    expect(urls.filter((url) => !/^\/[^/]/.test(url) && !url.startsWith('data:'))).toEqual([]);
    expect(res.body).not.toMatch(/https?:\/\//);
  });

  it('GET /docs/ answers the same page as GET /docs', async () => {
    const t = makeApp();
    const [plain, slash] = await Promise.all([t.call('GET', '/docs'), t.call('GET', '/docs/')]);
    expect(slash.status).toBe(200);
    expect(slash.body).toBe(plain.body);
  });

  it('GET /docs/assets/scalar.js answers the bundle the page loads, cacheable for good', async () => {
    const t = makeApp();
    const page = await t.call('GET', '/docs', { key: null });
    const script = /<script src="(\/docs\/assets\/scalar\.js\?v=[^"]+)"/.exec(page.body)?.[1];
    expect(script).toBeDefined();
    const res = await t.app.request(script as string);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toContain('immutable');
    const body = await res.text();
    expect(body.length).toBeGreaterThan(1_000_000);
    expect(body).toContain('createApiReference');
  });

  it('GET /docs/assets/{file} is 404 for any file but the allowed ones, paths included', async () => {
    const t = makeApp();
    for (const path of [
      '/docs/assets/standalone.js',
      '/docs/assets/..%2Fpackage.json',
      '/docs/assets/%2e%2e%2f%2e%2e%2f%2e%2e%2fpackage.json',
      '/docs/assets/dist%2Fbrowser%2Fstandalone.js',
      '/docs/assets/toString',
      '/docs/assets/browser/standalone.js',
    ]) {
      const res = await t.call('GET', path, { key: null });
      expect(res.status, path).toBe(404);
      expect(res.body, path).toEqual({ status_code: 404, error: expect.any(String) });
    }
  });

  it('GET / names the docs page', async () => {
    const res = await makeApp().call('GET', '/', { key: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ docs: '/docs' });
  });
});
