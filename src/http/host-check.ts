import type { MiddlewareHandler } from 'hono';
import { invalidParameter } from '../errors/index.js';
import type { AppEnv } from './env.js';

/**
 * DNS rebinding: a web page on `attacker.example`, its name re-pointed at 127.0.0.1, can read a server on the
 * developer's machine with the page's own origin, so CORS never applies. What gives it away is the Host header,
 * which names the attacker's host. A server bound to a loopback address answers only loopback names (and
 * those --allowed-hosts adds); one bound elsewhere was opened to other machines on purpose and checks only
 * when --allowed-hosts names hosts.
 */

/** `localhost`, `*.localhost`, 127.0.0.0/8 (IPv4-mapped too) and ::1: names that never leave the machine. */
function isLoopbackName(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    /^(?:::ffff:)?127(?:\.\d{1,3}){3}$/.test(name) ||
    name === '::1' ||
    name === '0:0:0:0:0:0:0:1'
  );
}

/** The host name of a Host header (`name:port`, `[v6]:port`), lower case. */
function hostName(header: string): string {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(0, value.indexOf(']') + 1);
  return value.replace(/:\d*$/, '');
}

/**
 * Which Host headers a server bound to `boundTo` answers, or undefined when it answers every Host (bound beyond
 * loopback, no list given). `boundTo` is the address the server binds (the CLI resolves --host first: `127.1`
 * or a name that resolves to 127.x is loopback however it is spelt), or a loopback name. The server's
 * middleware and `labelmock record`'s proxy both ask it.
 */
export function hostAccepter(
  boundTo: string,
  allowedHosts: readonly string[],
): { accepts: (header: string) => boolean; named: string; nameOf: (header: string) => string } | undefined {
  if (allowedHosts.includes('*')) return undefined;
  const loopbackOnly = isLoopbackName(boundTo);
  if (!loopbackOnly && allowedHosts.length === 0) return undefined;
  const allowed = new Set(allowedHosts.map((host) => host.toLowerCase()));
  const accepts = (header: string) => {
    const name = hostName(header);
    return isLoopbackName(name) || allowed.has(name);
  };
  return { accepts, named: ['localhost', '127.0.0.1', '[::1]', ...allowed].join(', '), nameOf: hostName };
}

/** The middleware, or undefined when the server answers every Host (see hostAccepter). */
export function hostCheck(boundTo: string, allowedHosts: readonly string[]): MiddlewareHandler<AppEnv> | undefined {
  const accepter = hostAccepter(boundTo, allowedHosts);
  if (!accepter) return undefined;
  return (c, next) => {
    const header = c.req.header('host');
    // In process (app.request) no Host is sent: no browser is involved.
    if (header === undefined || accepter.accepts(header)) return next();
    throw invalidParameter(
      'Host',
      `names "${accepter.nameOf(header).slice(0, 100)}", which this server does not answer to: it accepts ` +
        `${accepter.named} (--allowed-hosts adds names; this guards a local server against DNS rebinding)`,
    );
  };
}
