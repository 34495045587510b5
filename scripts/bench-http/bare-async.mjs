// The baseline of `npm run bench:http`: a bare Hono server answering, for each method and path
// (query included), the very bytes labelmock answered there (loaded by POST /__answers), so the
// ratio of the two is labelmock's own work beyond writing its answer. POST /__spin {"us": N} makes
// it also spend N µs of pure CPU on every answer (`--calibrate`: what a ratio allows per request).
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const answers = new Map();
let spinMs = 0;
const app = new Hono();
app.post('/__answers', async (c) => {
  for (const [key, body] of Object.entries(await c.req.json())) answers.set(key, body);
  return c.body(null, 204);
});
app.post('/__spin', async (c) => {
  spinMs = (await c.req.json()).us / 1000;
  return c.body(null, 204);
});
app.use(async (c, next) => { await next(); });
app.all("*", async (c) => { await null;
  if (spinMs > 0) {
    const until = performance.now() + spinMs;
    while (performance.now() < until);
  }
  const url = c.req.url;
  const body = answers.get(`${c.req.method} ${url.slice(url.indexOf('/', 8))}`);
  if (body === undefined) return c.text('no answer loaded', 404);
  return c.body(body, 200, { 'Content-Type': 'application/json' });
});
serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
  console.log(`bare hono listening on http://127.0.0.1:${info.port}`);
});
process.on('SIGTERM', () => process.exit(0));
