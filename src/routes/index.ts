import type { RouteSpec } from '../http/route.js';
import type { Services } from '../services/context.js';
import { batchRoutes } from './batches.js';
import { fileRoutes } from './files.js';
import { projectRoutes } from './projects.js';
import { taskCreateRoutes, taskRoutes } from './tasks.js';

/** Every /v1 route, in mount order (specific paths before catch-alls). */
export function apiRoutes(services: Services): RouteSpec[] {
  return [...taskRoutes(services), ...taskCreateRoutes(services), ...projectRoutes(), ...batchRoutes(services), ...fileRoutes(services)];
}
