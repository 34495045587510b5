/**
 * The library (`import { createApp } from 'labelmock'`): a whole mock as a Hono app, to serve or to
 * call in process (`app.request(...)`), with the clock and id generator a test may pin.
 */
export { type CreateAppOptions, createApp, type MockApp } from './app.js';
export type { Config } from './config/index.js';
export type { LogSink } from './http/request-log.js';
export { type Clock, ManualClock, systemClock } from './runtime/clock.js';
export { type IdGenerator, randomIds, sequentialIds } from './runtime/ids.js';
