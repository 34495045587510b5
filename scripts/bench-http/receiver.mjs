// The callback receiver of `npm run bench:http`: answers every delivery 200, in its own process so
// the deliveries load neither the mock nor the load generator.
import { createServer } from 'node:http';

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.end('ok'));
});
server.listen(0, '127.0.0.1', () => console.log(`receiver listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => process.exit(0));
