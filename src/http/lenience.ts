import type { MiddlewareHandler } from 'hono';
import { Lenience } from '../domain/lenience.js';
import type { AppEnv } from './env.js';

/** The answer header naming what a lenient request ignored (labelmock's own, like Prism's `sl-violations`). */
export const WARNING_HEADER = 'Labelmock-Warning';

/** Characters of one name in the header (a key may be any length; the 400 cuts it the same way). */
const MAX_HEADER_NAME_CHARS = 100;

/**
 * Gives each /v1 and /v2 request its tenant's lenience (after tenancy, before the routes). After the answer, what
 * it ignored is tallied on the tenant and named in the Labelmock-Warning header; the journal reads it from the
 * context.
 */
export const lenience: MiddlewareHandler<AppEnv> = async (c, next) => {
  const tenant = c.get('tenant');
  const read = new Lenience(tenant.settings.unknown_params === 'lenient');
  c.set('lenience', read);
  await next();
  if (read.ignoredCount === 0) return;
  tenant.warnings.add(read.ignored, read.ignoredCount);
  const value = warningText(read);
  try {
    c.res.headers.set(WARNING_HEADER, value);
  } catch {
    // A streamed or fetched answer may carry immutable headers: copy it once to add ours.
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set(WARNING_HEADER, value);
  }
};

/**
 * `ignored 2 unknown parameter(s): "callback_url", "task_id"`, in printable ASCII whatever the keys were: a key is
 * the client's text, and a header must never carry a line break or a character Node refuses.
 */
function warningText(read: Lenience): string {
  const names = read.ignored.map((name) =>
    (name.length > MAX_HEADER_NAME_CHARS ? `${name.slice(0, MAX_HEADER_NAME_CHARS)}..."` : name).replace(
      /[^\x20-\x7e]/g,
      (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
    ),
  );
  const more = read.ignoredCount - names.length;
  const rest = more > 0 ? `, and ${more} more` : '';
  return `ignored ${read.ignoredCount} unknown parameter(s): ${names.join(', ')}${rest}`;
}
