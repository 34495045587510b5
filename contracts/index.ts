/**
 * The contract kit as a library (`import { runContracts } from 'labelmock/contracts'`): the whole
 * suite registered, a runner, reporters, and the target a team points at its own implementation.
 */
import './suite/index.js';

export type { ContractDefinition, RuleFailure, Tag } from './kit/contract.js';
export { registeredContracts } from './kit/contract.js';
export type { EventData, EventStream, StreamedEvent } from './kit/events.js';
export type { FaultRule } from './kit/faults.js';
export type { ExpectedRequest, JournalEntry, JournalQuery } from './kit/journal.js';
export { MockSession, type MockSessionOptions } from './kit/mock-session.js';
export { formatJson, formatJunit, formatPretty, summarize } from './kit/report.js';
export {
  type ContractResult,
  type ContractStatus,
  PreflightError,
  preflight,
  type RunOptions,
  runContract,
  runContracts,
  selectContracts,
} from './kit/runner.js';
export { TAGS } from './kit/tags.js';
export type { Client, Exchange, HttpResult, Target } from './kit/target.js';
