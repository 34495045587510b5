import { ContractContext, type ContractDefinition, registeredContracts, SkipSignal } from './contract.js';
import type { Target } from './target.js';

export type ContractStatus = 'passed' | 'failed' | 'skipped';

export interface ContractResult {
  name: string;
  status: ContractStatus;
  /** Failure message or skip reason; empty when passed. */
  message: string;
  ms: number;
}

/** Runs one contract with a fresh context; cleanups (settings restores) always run. */
export async function runContract(definition: ContractDefinition, target: Target): Promise<ContractResult> {
  const started = performance.now();
  const ctx = new ContractContext(target);
  let status: ContractStatus = 'passed';
  let message = '';
  try {
    await definition.fn(ctx);
  } catch (err) {
    status = err instanceof SkipSignal ? 'skipped' : 'failed';
    message = describe(err);
  } finally {
    try {
      await ctx.runCleanups();
    } catch (err) {
      // A contract that passed but could not restore the target's settings leaves it dirty: a failure.
      if (status !== 'failed') {
        status = 'failed';
        message = describe(err);
      } else message += `; ${describe(err)}`;
    }
  }
  return { name: definition.name, status, message, ms: Math.round(performance.now() - started) };
}

/** Runs contracts one after another (they share the target's tenants and clocks). */
export async function runContracts(
  target: Target,
  options: { contracts?: readonly ContractDefinition[]; onResult?: (result: ContractResult) => void } = {},
): Promise<ContractResult[]> {
  const results: ContractResult[] = [];
  for (const definition of options.contracts ?? registeredContracts()) {
    const result = await runContract(definition, target);
    options.onResult?.(result);
    results.push(result);
  }
  return results;
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    // Assertion failures and skips carry their own message; anything else is unexpected, keep its name.
    return err.name === 'ContractFailure' || err.name === 'SkipSignal' ? err.message : `${err.name}: ${err.message}`;
  }
  return String(err);
}
