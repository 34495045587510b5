import type { RouteSpec } from '../http/route.js';
import type { Services } from '../services/context.js';

/** The /_mock routes for files. Placeholder: filled in by the files work. */
export function fileControlRoutes(_services: Services): RouteSpec[] {
  return [];
}
