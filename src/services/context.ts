import type { Config } from '../config.js';
import type { Clock } from '../runtime/clock.js';
import type { IdGenerator } from '../runtime/ids.js';
import type { Store } from '../store/store.js';
import type { Scheduler } from './scheduler.js';

/** What routes hand to services: built once per app by createApp. */
export interface Services {
  config: Config;
  clock: Clock;
  ids: IdGenerator;
  store: Store;
  scheduler: Scheduler;
  /** When createApp built the app, on its clock (the health route's uptime). */
  startedAt: number;
}
