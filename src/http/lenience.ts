import type { Context } from 'hono';
import { Lenience } from '../domain/lenience.js';
import type { Tenant } from '../store/tenant.js';
import { keptName } from '../store/warning-tally.js';
import type { AppEnv } from './env.js';

/**
 * The lenience of a /v1 or /v2 request (its tenant's settings.unknown_params), set on the context for the route's
 * parse and the self-check; the control plane reads strictly (undefined). Made where the route is mounted, not by a
 * middleware of its own: one less step on every request.
 */
export function requestLenience(c: Context<AppEnv>): Lenience {
  const lenience = new Lenience(c.get('tenant').settings.unknown_params === 'lenient');
  c.set('lenience', lenience);
  return lenience;
}

/**
 * What the request ignored, tallied on the tenant, as the Labelmock-Warning header's text (mount-routes puts it on
 * the context, where the journal and the error translator read it): `ignored 2 unknown parameter(s): "callback_url",
 * "task_id"`; undefined when nothing was.
 */
export function warningFor(tenant: Tenant, read: Lenience): string | undefined {
  if (read.ignoredCount === 0) return undefined;
  tenant.warnings.add(read.ignored, read.ignoredCount);
  return warningText(read);
}

/** In printable ASCII whatever the keys were: a key is the client's text; a header must never carry a line break. */
function warningText(read: Lenience): string {
  const names = read.ignored.map((name) =>
    keptName(name).replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
  const more = read.ignoredCount - names.length;
  const rest = more > 0 ? `, and ${more} more` : '';
  return `ignored ${read.ignoredCount} unknown parameter(s): ${names.join(', ')}${rest}`;
}
