import type { RouteSpec } from '../http/route.js';
import type { Services } from '../services/context.js';

/** The /v1/files routes. Placeholder: filled in by the files work. */
export function fileRoutes(_services: Services): RouteSpec[] {
  return [];
}
