import { describe, expect, it } from 'vitest';
import { packageVersion } from '../src/version.js';
import { makeApp } from './helpers.js';

describe('GET /_mock/health', () => {
  it('GET /_mock/health answers without a key: status ok, the package version, uptime 0', async () => {
    const t = makeApp();
    const res = await t.call('GET', '/_mock/health', { key: null });
    expect(res.status).toBe(200);
    // A library app leaves its user's zod alone: no fast path here (the bin's is tested in test/cli.test.ts).
    expect(res.body).toEqual({
      status: 'ok',
      version: packageVersion(),
      uptime_s: 0,
      fast_validation: false,
      shard: null,
    });
    expect(packageVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('GET /_mock/health counts uptime in whole seconds since the app was created', async () => {
    const t = makeApp();
    t.clock.advance(61_999);
    const res = await t.call('GET', '/_mock/health', { key: null });
    expect(res.status).toBe(200);
    expect(res.body.uptime_s).toBe(61);
  });

  it('GET /_mock/health with a key the server would refuse still answers: auth never runs for it', async () => {
    const t = makeApp({ config: { keys: [{ key: 'sk_only', account: 'acme', mode: 'test' }] } });
    const res = await t.call('GET', '/_mock/health', { key: 'test_other' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
  });

  it('GET /_mock/settings still needs a key: health is the only keyless control route', async () => {
    const t = makeApp();
    const res = await t.call('GET', '/_mock/settings', { key: null });
    expect(res.status).toBe(401);
    expect(res.body.status_code).toBe(401);
  });

  it('GET /_mock/openapi.json documents GET /_mock/health with no security', async () => {
    const t = makeApp();
    const res = await t.call('GET', '/_mock/openapi.json', { key: null });
    expect(res.status).toBe(200);
    const operation = res.body.paths['/_mock/health'].get;
    expect(operation.security).toEqual([]);
    expect(operation.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Health',
    });
    expect(res.body.components.schemas.Health.required).toEqual([
      'status',
      'version',
      'uptime_s',
      'fast_validation',
      'shard',
    ]);
    expect(res.body.paths['/_mock/settings'].get.security).toBeUndefined();
  });
});
