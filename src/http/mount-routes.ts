import type { Context, Hono } from 'hono';
import { JsonText } from '../domain/common/json-text.js';
import { WARNING_HEADER } from '../domain/lenience.js';
import type { BytePool } from '../runtime/byte-pool.js';
import { canonicalJson, type ParsedBody, readRawBody, tryParseBody } from './body.js';
import type { AppEnv } from './env.js';
import type { IdempotencyGuard, Outcome } from './idempotency.js';
import { outgoingOf } from './incoming.js';
import { noteAnswer } from './journal-capture.js';
import { requestLenience, warningFor } from './lenience.js';
import { withHeaders } from './response-headers.js';
import type { RouteSpec } from './route.js';

const honoPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * Equal JSON bodies match whatever their formatting; a body that is not JSON (or is past the shape
 * limits, so never canonicalized: that recursion is what the limits guard) compares as text.
 */
function fingerprint(method: string, path: string, raw: string, parsed: ParsedBody): string {
  const body = !parsed.ok ? raw : parsed.value === undefined ? '' : canonicalJson(parsed.value);
  return `${method} ${path} ${body}`;
}

/** Mounts routes on a Hono app: validation once at the edge, then the handler, always 200. */
export function mountRoutes(app: Hono<AppEnv>, routes: RouteSpec[], idempotency: IdempotencyGuard): void {
  for (const route of routes) {
    // Made once per route, not per request.
    const jsonLimits = { root: route.bodyName, ...route.jsonLimits };
    // /v1 and /v2 read undeclared parameters and forms as the tenant allows; the control plane strictly.
    const lenient = route.path.startsWith('/v1/') || route.path.startsWith('/v2/');
    app.on(route.method.toUpperCase(), honoPath(route.path), async (c) => {
      const raw = route.method === 'get' || route.multipart ? '' : await readRawBody(c);
      const lenience = lenient ? requestLenience(c) : undefined;
      // Parsed once, before the guard (the fingerprint needs it); a failure is thrown inside it.
      const parsed = tryParseBody(raw, c.req.header('content-type') ?? '', jsonLimits, lenient);
      if (parsed.ok && parsed.form && lenience) lenience.formStrings = true;
      let answered: Response | undefined;
      let bytes: Uint8Array | undefined;
      const run = async (): Promise<Outcome> => {
        if (!parsed.ok) throw parsed.error;
        const given = parsed.value === undefined && route.absentBody ? route.absentBody() : parsed.value;
        const result = await route.invoke({ params: c.req.param(), body: given, c });
        if (result instanceof Response) {
          answered = result;
          return { status: result.status, body: '' };
        }
        if (result instanceof JsonText) {
          // Bytes serialized before (a task's, kept per revision) go out as they are; an idempotent
          // route also keeps their text, for its replays.
          bytes = result.bytes;
          if (result.lender) giveBackWhenSent(c, result.lender, result.bytes);
          return { status: 200, body: route.idempotent ? result.text : '' };
        }
        return { status: 200, body: JSON.stringify(result) };
      };
      const key = c.req.header('idempotency-key');
      let outcome: Outcome;
      try {
        // Everything after the raw read happens inside the guard: even a malformed body's 400 is stored.
        outcome =
          route.idempotent && key !== undefined
            ? await idempotency.run(c.get('tenant'), key, fingerprint(route.method, c.req.path, raw, parsed), run)
            : await run();
      } finally {
        // Tallied and put on the context whatever the answer: the error translator adds the header to an error.
        const ignored = lenience && warningFor(c.get('tenant'), lenience);
        if (ignored) c.set('warning', ignored);
      }
      const warning = c.get('warning');
      if (answered) return warning ? withHeaders(answered, { [WARNING_HEADER]: warning }) : answered;
      const headers = {
        'Content-Type': 'application/json',
        ...outcome.headers,
        ...(warning && { [WARNING_HEADER]: warning }),
      };
      // A fresh JsonText answer; a replayed one (bytes unset) is the stored text.
      if (bytes && outcome.status === 200) {
        // Buffers made here (Buffer.concat, allocUnsafeSlow) own a plain ArrayBuffer, never a shared one.
        const body = bytes as Uint8Array<ArrayBuffer>;
        noteAnswer(c, 200, body);
        return c.body(body, 200, headers);
      }
      noteAnswer(c, outcome.status, outcome.body);
      return c.body(outcome.body, outcome.status as 200, headers);
    });
  }
}

/**
 * Gives lent answer bytes back to their pool once the Node response has handed them all to the
 * socket ('finish'), whichever answer went out. A response that never finishes (the client left
 * mid-write) keeps them, as does one made in process: the garbage collector takes those. The
 * journal keeps no reference to them: lent bytes are past its cap, so it keeps a cut copy.
 */
function giveBackWhenSent(c: Context<AppEnv>, lender: BytePool, bytes: Uint8Array): void {
  outgoingOf(c)?.once('finish', () => lender.giveBack(bytes));
}
