import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startCli as startCliProcess } from './cli-process.js';

/** Starts the real CLI on a free port; `port` resolves once the banner is out. */
function startCli(args: string[]) {
  const cli = startCliProcess(['--port', '0', ...args]);
  const port = cli.base.then((base) => Number(new URL(base).port));
  return { child: cli.child, port, exited: cli.exited, output: () => cli.out() + cli.err() };
}

describe('npm start shutdown (src/cli.ts)', () => {
  it('SIGTERM with a half-sent POST /v1/task/imageannotation held open exits 0 after --shutdown-timeout', async () => {
    const cli = startCli(['--shutdown-timeout', '300']);
    try {
      const port = await cli.port;
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => {});
      await new Promise((resolve) => socket.once('connect', resolve));
      const auth = Buffer.from('test_acme:').toString('base64');
      socket.write(
        `POST /v1/task/imageannotation HTTP/1.1\r\nHost: localhost\r\nAuthorization: Basic ${auth}\r\n` +
          `Content-Length: 100\r\n\r\n{"attach`,
      );
      const held = connect(port, '127.0.0.1');
      held.on('error', () => {});
      await new Promise((resolve) => held.once('connect', resolve));
      held.write('GET /v1/tasks HTTP/1.1\r\nHost: localhost\r\n');
      // A whole exchange on a third connection: by its answer the server has read the two sockets above.
      expect((await fetch(`http://127.0.0.1:${port}/_mock/health`)).status).toBe(200);
      cli.child.kill('SIGTERM');
      expect(await cli.exited).toBe(0);
      expect(cli.output()).toContain('labelmock: requests still open after 300 ms were cut off');
      socket.destroy();
      held.destroy();
    } finally {
      cli.child.kill('SIGKILL');
    }
  });
});
