// The baseline of `npm run bench:start`: a bare Hono server started the way labelmock's bin is
// (plain node, port 0, a line naming its URL), answering one JSON route.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono();
app.get('/v1/tasks', (c) => c.json({ docs: [], total: 0, limit: 100, offset: 0, has_more: false, next_token: null }));
serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
  console.log(`bare hono listening on http://127.0.0.1:${info.port}`);
});
process.on('SIGTERM', () => process.exit(0));
