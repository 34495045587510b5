import type { RouteSpec } from '../../http/route.js';
import type { Services } from '../../services/context.js';
import { v2BatchRoutes } from './batches.js';
import { v2DatasetRoutes } from './datasets.js';
import { v2DeliveryRoutes } from './deliveries.js';
import { v2ProjectRoutes } from './projects.js';
import { v2TaskRoutes } from './tasks.js';

/** Every /v2 route: the service's v2 API, a second face on the store v1 shows. */
export function v2Routes(services: Services): RouteSpec[] {
  return [
    ...v2ProjectRoutes(),
    ...v2BatchRoutes(services),
    ...v2TaskRoutes(services),
    ...v2DeliveryRoutes(),
    ...v2DatasetRoutes(),
  ];
}
