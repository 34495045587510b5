/**
 * The contract kit as a library (`import { runContracts } from 'labelmock/contracts'`): the whole
 * suite registered, a runner, and the target a team points at its own implementation.
 */
import './suite/index.js';

export { type ContractDefinition, registeredContracts } from './kit/contract.js';
export { type ContractResult, type ContractStatus, runContract, runContracts } from './kit/runner.js';
export type { Target } from './kit/target.js';
