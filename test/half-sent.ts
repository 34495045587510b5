import { once } from 'node:events';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';

/**
 * Sends `head` (a request cut off mid-body) on a raw socket, waits until the server has the request, then
 * leaves (the socket is destroyed) and waits until the server has closed its answer: no sleep, each step
 * waits on the event that says it happened.
 */
export async function sendHalfAndLeave(server: Server, head: string): Promise<void> {
  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  socket.on('error', () => {});
  await once(socket, 'connect');
  const received = once(server, 'request') as Promise<[IncomingMessage, ServerResponse]>;
  socket.write(head);
  const [, res] = await received;
  const closed = once(res, 'close');
  socket.destroy();
  await closed;
}
