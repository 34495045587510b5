import {
  ContractContext,
  type ContractDefinition,
  ContractFailure,
  type RuleFailure,
  registeredContracts,
  SetupFailure,
  SkipSignal,
  type Tag,
} from './contract.js';
import { currentRun, type RunScope } from './run-scope.js';
import { TAGS } from './tags.js';
import { basicAuth, describeNetworkError, type Exchange, normalizeBaseUrl, type Target } from './target.js';

/** `failed`: a rule broke; `setup-failed`: the contract could not get to its rules (a fixture failed). */
export type ContractStatus = 'passed' | 'failed' | 'setup-failed' | 'skipped';

export interface ContractResult {
  name: string;
  tags: readonly Tag[];
  status: ContractStatus;
  /** Failure messages joined, or the skip reason; empty when passed. */
  message: string;
  /** Every broken rule (or the failed setup step), each with the exchange that showed it. */
  failures: RuleFailure[];
  /** Rules of a kind the run did not select (labelmock's wording inside an interface contract), not checked. */
  unchecked: string[];
  /** The section the contract's rule comes from (interface contracts). */
  cites?: string;
  ms: number;
}

/**
 * Runs one contract with a fresh context; cleanups (settings restores) always run. Rules of another
 * kind than the contract's (see `labelmockChoice`) are checked when `selected` holds that kind.
 */
export async function runContract(
  definition: ContractDefinition,
  target: Target,
  selected: readonly Tag[] = TAGS,
): Promise<ContractResult> {
  const started = performance.now();
  const ctx = new ContractContext(target);
  let skipReason: string | undefined;
  const scope: RunScope = {
    waitMs: target.waitMs ?? 5000,
    checks: (kind) => definition.tags.includes(kind) || selected.includes(kind),
    unchecked: [],
  };
  await currentRun.run(scope, async () => {
    try {
      await definition.fn(ctx);
    } catch (err) {
      if (err instanceof SkipSignal) skipReason = err.message;
      else ctx.failures.push(toFailure(err, ctx));
    } finally {
      try {
        await ctx.runCleanups();
      } catch (err) {
        // A contract that could not restore the target's settings leaves it dirty: a failure.
        ctx.failures.push({ setup: true, message: describe(err) });
      }
      await ctx.cancelCreated();
    }
  });
  const failures = ctx.failures;
  let status: ContractStatus = 'passed';
  if (failures.some((f) => !f.setup)) status = 'failed';
  else if (failures.length > 0) status = 'setup-failed';
  else if (skipReason !== undefined) status = 'skipped';
  const message =
    status === 'skipped'
      ? (skipReason ?? '')
      : failures.map((f) => (f.rule ? `[${f.rule}] ${f.message}` : f.message)).join('; ');
  return {
    name: definition.name,
    tags: definition.tags,
    status,
    message,
    failures,
    unchecked: scope.unchecked,
    ...(definition.cites && { cites: definition.cites }),
    ms: elapsed(started),
  };
}

function toFailure(err: unknown, ctx: ContractContext): RuleFailure {
  const exchange: Exchange | undefined = err instanceof ContractFailure ? err.exchange : undefined;
  return {
    ...(err instanceof ContractFailure && err.kind && { kind: err.kind }),
    setup: err instanceof SetupFailure,
    message: describe(err),
    exchange: exchange ?? ctx.exchanges.at(-1),
  };
}

const elapsed = (started: number) => Math.round(performance.now() - started);

export interface Selection {
  /** Run contracts whose every tag is listed (default: all). */
  tags?: readonly Tag[];
  /** Case-insensitive substring of the name. */
  grep?: string;
}

/** The contracts a selection picks, in registration order. */
export function selectContracts(
  selection: Selection,
  contracts: readonly ContractDefinition[] = registeredContracts(),
): ContractDefinition[] {
  const tags = selection.tags ?? TAGS;
  const grep = selection.grep?.toLowerCase();
  return contracts.filter(
    (c) => c.tags.every((tag) => tags.includes(tag)) && (!grep || c.name.toLowerCase().includes(grep)),
  );
}

export interface RunOptions extends Partial<Omit<Target, 'baseUrl' | 'apiKey'>>, Selection {
  baseUrl: string;
  apiKey: string;
  /** Explicit contracts (default: the registered ones picked by tags and grep). */
  contracts?: readonly ContractDefinition[];
  onResult?: (result: ContractResult) => void;
  /** Stop after the first failed contract. */
  bail?: boolean;
  /** One request before the suite; throws PreflightError when nothing answers or the key is refused (default true). */
  preflight?: boolean;
}

/**
 * Runs contracts one after another (they share the target's tenants and clocks) and answers one
 * result per contract. `runContracts({ baseUrl, apiKey, otherApiKey, tags: ['interface'] })`.
 */
export async function runContracts(given: RunOptions): Promise<ContractResult[]> {
  const options: RunOptions = { preflight: true, ...given };
  const target: Target = { ...options, fetch: options.fetch ?? globalThis.fetch };
  if (options.preflight) await preflight(target);
  const contracts = options.contracts ?? selectContracts(options);
  const results: ContractResult[] = [];
  for (const definition of contracts) {
    const result = await runContract(definition, target, options.tags ?? TAGS);
    options.onResult?.(result);
    results.push(result);
    if (options.bail && (result.status === 'failed' || result.status === 'setup-failed')) break;
  }
  return results;
}

export class PreflightError extends Error {
  override name = 'PreflightError';
}

/** One `GET /v1/tasks?limit=1`: the target answers and takes the key, or one clear error. */
export async function preflight(target: Target): Promise<void> {
  const base = normalizeBaseUrl(target.baseUrl);
  const url = `${base}/v1/tasks?limit=1`;
  let response: Response;
  try {
    response = await target.fetch(url, {
      headers: { Authorization: basicAuth(target.apiKey), Accept: 'application/json' },
      signal: AbortSignal.timeout(target.timeoutMs ?? 30_000),
    });
    await response.text();
  } catch (err) {
    const why =
      (err as Error)?.name === 'TimeoutError'
        ? `no answer within ${target.timeoutMs ?? 30_000} ms`
        : describeNetworkError(err);
    throw new PreflightError(`cannot reach ${base} (GET /v1/tasks?limit=1): ${why}`);
  }
  if (response.status === 401 || response.status === 403)
    throw new PreflightError(`${base} refused the API key (GET /v1/tasks?limit=1 answered ${response.status})`);
  if (response.status === 404)
    throw new PreflightError(`${base} has no /v1/tasks (GET /v1/tasks?limit=1 answered 404): is the base URL right?`);
  if (response.status >= 500)
    throw new PreflightError(`${base} answered GET /v1/tasks?limit=1 with HTTP ${response.status}`);
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    // Assertion failures and skips carry their own message; anything else is unexpected, keep its name.
    return err instanceof ContractFailure || err instanceof SkipSignal ? err.message : `${err.name}: ${err.message}`;
  }
  return String(err);
}
