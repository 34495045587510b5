import type { RouteSpec } from '../http/route.js';
import type { Services } from '../services/context.js';
import { batchRoutes } from './batches.js';
import { fileRoutes } from './files.js';
import { projectRoutes } from './projects.js';
import { qualityRoutes } from './quality.js';
import { qualityTaskRoutes } from './quality-tasks.js';
import { studioRoutes } from './studio.js';
import { studioBatchRoutes } from './studio-batches.js';
import { taskCreateRoutes, taskRoutes } from './tasks.js';
import { teamRoutes } from './teams.js';

/** Every /v1 route, in mount order (specific paths before catch-alls). */
export function apiRoutes(services: Services): RouteSpec[] {
  return [
    ...taskRoutes(services),
    ...taskCreateRoutes(services),
    ...projectRoutes(),
    ...batchRoutes(services),
    ...fileRoutes(services),
    ...teamRoutes(services),
    ...studioRoutes(services),
    ...studioBatchRoutes(services),
    ...qualityRoutes(),
    ...qualityTaskRoutes(services),
  ];
}
