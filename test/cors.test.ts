import { describe, expect, it } from 'vitest';
import { createImageTask, imageRequest, makeApp } from './helpers.js';

const ORIGIN = 'http://localhost:5173';
const preflight = (method: string, headers = 'authorization,content-type,idempotency-key') => ({
  key: null,
  headers: { origin: ORIGIN, 'access-control-request-method': method, 'access-control-request-headers': headers },
});

describe('CORS (--cors)', () => {
  it('OPTIONS /v1/task/imageannotation preflight answers 204 without a key, allowing the client headers', async () => {
    const t = makeApp({ config: { cors: [ORIGIN] } });
    const res = await t.call('OPTIONS', '/v1/task/imageannotation', preflight('POST'));
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe(
      'Authorization,Content-Type,Idempotency-Key,Labelmock-Fault',
    );
  });

  it('OPTIONS /_mock/settings and /openapi.json preflights answer 204 too', async () => {
    const t = makeApp({ config: { cors: [ORIGIN] } });
    for (const path of ['/_mock/settings', '/_mock/health', '/openapi.json']) {
      const res = await t.call('OPTIONS', path, preflight('PATCH'));
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    }
  });

  it('GET /v1/tasks from an allowed origin has Access-Control-Allow-Origin, exposing Idempotent-Replayed', async () => {
    const t = makeApp({ config: { cors: [ORIGIN] } });
    const res = await t.call('GET', '/v1/tasks', { headers: { origin: ORIGIN } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(res.headers.get('access-control-expose-headers')).toContain('Idempotent-Replayed');
    expect(res.headers.get('vary')).toContain('Origin');
  });

  it('GET /v1/tasks without a key from an allowed origin: the 401 is readable by the browser app', async () => {
    const t = makeApp({ config: { cors: [ORIGIN] } });
    const res = await t.call('GET', '/v1/tasks', { key: null, headers: { origin: ORIGIN } });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(res.body.status_code).toBe(401);
  });

  it('POST /v1/task/imageannotation replayed by Idempotency-Key keeps the CORS headers', async () => {
    const t = makeApp({ config: { cors: [ORIGIN] } });
    const options = { body: imageRequest(), headers: { origin: ORIGIN, 'idempotency-key': 'k1' } };
    expect((await t.call('POST', '/v1/task/imageannotation', options)).status).toBe(200);
    const replay = await t.call('POST', '/v1/task/imageannotation', options);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('access-control-allow-origin')).toBe(ORIGIN);
  });

  it('GET /v1/tasks from an origin not listed gets no Access-Control-Allow-Origin', async () => {
    const t = makeApp({ config: { cors: [ORIGIN] } });
    const res = await t.call('GET', '/v1/tasks', { headers: { origin: 'http://evil.test' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('GET /v1/tasks with --cors * allows any origin', async () => {
    const t = makeApp({ config: { cors: ['*'] } });
    await createImageTask(t);
    const res = await t.call('GET', '/v1/tasks', { headers: { origin: 'http://anything.test:8080' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('OPTIONS /v1/task/imageannotation without --cors is not a preflight: no CORS headers, no 204', async () => {
    const t = makeApp();
    const res = await t.call('OPTIONS', '/v1/task/imageannotation', preflight('POST'));
    expect(res.status).not.toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const get = await t.call('GET', '/v1/tasks', { headers: { origin: ORIGIN } });
    expect(get.status).toBe(200);
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });
});
