import { describe, expect, it } from 'vitest';
import { makeApp } from './helpers.js';

/** The versioned asset folder the shell names: `/_mock/ui/assets/<hash>/`. */
function assetFolder(html: string): string {
  const found = /<script type="module" src="(\/_mock\/ui\/assets\/[0-9a-f]{12}\/)app\.mjs"><\/script>/.exec(html);
  if (!found?.[1]) throw new Error(`no app.mjs script in ${html}`);
  return found[1];
}

describe('inspector', () => {
  it('GET /_mock/ui answers the HTML shell without a key, with a strict CSP and no other host', async () => {
    const res = await makeApp().call('GET', '/_mock/ui', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.body).toContain('labelmock inspector');
    expect(res.body).not.toMatch(/https?:\/\//);
    // No inline code: every script has a src.
    expect(res.body).not.toMatch(/<script(?![^>]*src=)[^>]*>/);
  });

  it('GET /_mock/ui/ answers the same shell as GET /_mock/ui, with or without a key', async () => {
    const t = makeApp();
    const [plain, slash, keyed] = await Promise.all([
      t.call('GET', '/_mock/ui', { key: null }),
      t.call('GET', '/_mock/ui/', { key: null }),
      t.call('GET', '/_mock/ui/'),
    ]);
    expect(slash.status).toBe(200);
    expect(slash.body).toBe(plain.body);
    expect(keyed.body).toBe(plain.body);
  });

  it('GET /_mock/ui/assets/{version}/{file} answers the scripts and styles, cacheable for good', async () => {
    const t = makeApp();
    const folder = assetFolder((await t.call('GET', '/_mock/ui', { key: null })).body);
    const script = await t.app.request(`${folder}app.mjs`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('cache-control')).toContain('immutable');
    expect(script.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await script.text()).toContain('streamEvents');
    const css = await t.app.request(`${folder}inspector.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('GET /_mock/ui/assets/{version}/{file} serves scripts that never parse HTML from strings', async () => {
    const t = makeApp();
    const folder = assetFolder((await t.call('GET', '/_mock/ui', { key: null })).body);
    for (const name of ['app.mjs', 'dom.mjs', 'task.mjs', 'tasks.mjs', 'journals.mjs', 'faults.mjs']) {
      const text = await (await t.app.request(`${folder}${name}`)).text();
      expect(text, name).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
    }
  });

  it('GET /_mock/ui/assets/{version}/{file} is 404 for unknown files, paths and other versions', async () => {
    const t = makeApp();
    const folder = assetFolder((await t.call('GET', '/_mock/ui', { key: null })).body);
    for (const path of [
      `${folder}missing.mjs`,
      `${folder}..%2Fpackage.json`,
      `${folder}%2e%2e%2f%2e%2e%2fpackage.json`,
      `${folder}toString`,
      `${folder}index.html`,
      '/_mock/ui/assets/000000000000/app.mjs',
    ]) {
      const res = await t.call('GET', path, { key: null });
      expect(res.status, path).toBe(404);
      expect(res.body, path).toEqual({ status_code: 404, error: expect.any(String) });
    }
  });

  it('GET /_mock/tasks without a key is still 401: only the inspector shell is public', async () => {
    const res = await makeApp().call('GET', '/_mock/callbacks', { key: null });
    expect(res.status).toBe(401);
  });
});
