/** Registers every contract, in the order runners execute them. */
import './auth.js';
import './errors.js';
import './task-create.js';
import './task-read-list.js';
import './task-list-filters.js';
import './task-maintenance.js';
import './unique-id.js';
import './idempotency.js';
import './tenant-isolation.js';
import './control-plane.js';
import './control-plane-tenant.js';
import './openapi.js';
import './projects.js';
import './batches.js';
import './types-image-like.js';
import './types-lidar.js';
