import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kind } from './tags.js';

/**
 * What the running contract may check and how long it waits, set by the runner around each contract
 * and read by helpers that have no context at hand (`eventually`, `expectErrorBody`).
 */
export interface RunScope {
  /** How long `eventually` waits for an asynchronous outcome (--wait). */
  waitMs: number;
  /** Whether rules of this kind are checked: the contract's own kind, and every selected tag. */
  checks: (kind: Kind) => boolean;
  /** Rules passed over because their kind was not selected (reported with the result). */
  unchecked: string[];
}

export const currentRun = new AsyncLocalStorage<RunScope>();

/** The current run's wait, 5000 ms outside a run. */
export const defaultWaitMs = (): number => currentRun.getStore()?.waitMs ?? 5000;

/** Whether a rule of this kind is checked in the current run (everything is, outside a run). */
export const checksKind = (kind: Kind): boolean => currentRun.getStore()?.checks(kind) ?? true;

/** Notes a rule the current run passes over. */
export function noteUnchecked(rule: string): void {
  const scope = currentRun.getStore();
  if (scope && !scope.unchecked.includes(rule)) scope.unchecked.push(rule);
}
