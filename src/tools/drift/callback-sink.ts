import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isRecord } from '../../domain/tasks/is-record.js';
import type { IdMap } from './ids.js';

/**
 * Where replayed callbacks go. A recording of the real service holds its users' `callback_url`s (production
 * webhooks): replayed as they are, labelmock would post completions to them. By default drift puts a local sink
 * in their place (a server on 127.0.0.1 of drift's own that answers 200 to anything), each recorded URL mapped to
 * one sink URL, so answers still compare equal; `--keep-callback-urls` sends them where they were recorded.
 */
export interface CallbackSink {
  /** The body with every `callback_url` it holds (a JSON field at any depth, or a form field) put on the sink. */
  rewrite(body: string | undefined, contentType: string | undefined): string | undefined;
  close(): void;
}

const FIELD = 'callback_url';

export async function startCallbackSink(ids: IdMap): Promise<CallbackSink> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  const sinkOf = (recorded: string) =>
    recorded.startsWith(`${base}/`) ? recorded : ids.alias(recorded, () => `${base}/${ids.size}`);
  /** Replaces callback URLs in a JSON value, in place; answers whether any was found. */
  const inJson = (value: unknown): boolean => {
    let found = false;
    const stack = [value];
    while (stack.length > 0) {
      const item = stack.pop();
      if (Array.isArray(item)) stack.push(...item);
      else if (isRecord(item)) {
        for (const [key, inner] of Object.entries(item)) {
          if (key === FIELD && typeof inner === 'string') {
            item[key] = sinkOf(inner);
            found = true;
          } else stack.push(inner);
        }
      }
    }
    return found;
  };
  return {
    rewrite(body, contentType) {
      if (body === undefined) return undefined;
      if (/x-www-form-urlencoded/i.test(contentType ?? '')) {
        const form = new URLSearchParams(body);
        if (!form.has(FIELD)) return body;
        return new URLSearchParams([...form].map(([k, v]) => [k, k === FIELD ? sinkOf(v) : v])).toString();
      }
      try {
        const value: unknown = JSON.parse(body);
        return inJson(value) ? JSON.stringify(value) : body;
      } catch {
        return body;
      }
    },
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
