import { randomBytes } from 'node:crypto';
import { citationOf } from './citations.js';
import { ContractFailure, SetupFailure, SkipSignal } from './expect.js';
import { checksKind, noteUnchecked } from './run-scope.js';
import { classify, type Kind, needsOf, type Tag } from './tags.js';
import { Client, controlPlaneOf, type Exchange, type Target } from './target.js';

export { eventually } from './eventually.js';
export * from './expect.js';
export type { Tag } from './tags.js';

/**
 * The registry of contracts and the context each one runs with. Suite files call `contract(...)`
 * at import time; runners (the CLI, the in-process vitest harness) read the registry.
 */
export type ContractFn = (ctx: ContractContext) => Promise<void>;

export interface ContractDefinition {
  name: string;
  /** `interface`, `client` or `labelmock`, plus `control` when the contract needs /_mock routes. */
  tags: readonly Tag[];
  /** The /_mock routes the contract needs (`METHOD /_mock/path`), empty for pure interface contracts. */
  needs: readonly string[];
  /** Where the rule is written (`interface: Limits`, `real service: Status codes`); set on every interface contract. */
  cites?: string;
  fn: ContractFn;
}

export interface ContractMeta {
  /** Overrides the classification of contracts/kit/tags.ts (an `interface` one still needs a citation). */
  kind?: Kind;
  /** Overrides the citation of contracts/kit/citations.ts. */
  cites?: string;
  /** Extra /_mock routes the source scan cannot see. */
  needs?: readonly string[];
}

const registry: ContractDefinition[] = [];

export function contract(name: string, fn: ContractFn, meta: ContractMeta = {}): void {
  if (registry.some((entry) => entry.name === name)) throw new Error(`Duplicate contract name: ${name}`);
  const named = /^(GET|POST|PUT|PATCH|DELETE) (\/_mock\/\S*)/.exec(name);
  const fromName = named ? [`${named[1]} ${named[2]}`] : [];
  const needs = [...new Set([...needsOf(fn.toString()), ...fromName, ...(meta.needs ?? [])])].sort();
  const kind = meta.kind ?? classify(name);
  const cites = meta.cites ?? (kind === 'interface' || kind === 'recorded' ? citationOf(name) : undefined);
  if ((kind === 'interface' || kind === 'recorded') && !cites)
    throw new Error(
      `Contract "${name}" is tagged interface but cites no section: add it to contracts/kit/citations.ts`,
    );
  const tags: Tag[] = [kind];
  if (needs.length > 0) tags.push('control');
  registry.push({ name, tags, needs, ...(cites && { cites }), fn });
}

export function registeredContracts(): readonly ContractDefinition[] {
  return registry;
}

/** One broken rule (or failed setup step) of a contract, with the HTTP exchange that showed it. */
export interface RuleFailure {
  /** The rule's name inside the contract, or undefined for the contract as a whole. */
  rule?: string;
  /** Set when the rule is of another kind than its contract (labelmock's choice inside an interface contract). */
  kind?: Kind;
  /** A setup step failed: the contract could not get to its rules (not a rule failure). */
  setup: boolean;
  message: string;
  exchange?: Exchange;
}

export class ContractContext {
  /** The main key's client. */
  readonly api: Client;
  /** Every request this contract made, oldest first (failure reports show the last one). */
  readonly exchanges: Exchange[] = [];
  /** Rules that broke so far (`rule` keeps going after a failure). */
  readonly failures: RuleFailure[] = [];
  /** Tasks this contract created (cancelled afterwards where still pending). */
  readonly created: { client: Client; taskId: string }[] = [];
  private readonly cleanups: (() => Promise<void>)[] = [];

  constructor(readonly target: Target) {
    this.api = this.client(target.apiKey);
  }

  /** A client for any key, recording its exchanges in this contract. */
  client(key: string): Client {
    return new Client(this.target, key, this);
  }

  skip(reason: string): never {
    throw new SkipSignal(reason);
  }

  /** Fresh names per call, so runs can share an account without seeing each other's data. */
  unique(prefix: string): string {
    return `${prefix}_${Date.now().toString(36)}${randomBytes(5).toString('hex')}`;
  }

  /** The second tenant's client, or a skip when the target was given no second key. */
  other(): Client {
    if (!this.target.otherApiKey) this.skip('no otherApiKey given (pass --other-api-key)');
    return this.client(this.target.otherApiKey);
  }

  /** Whether a key may be reset, imported into or have its clock moved (marked disposable by the user). */
  isDisposable(key: string): boolean {
    return (this.target.disposableKeys ?? []).includes(key);
  }

  async hasControlPlane(): Promise<boolean> {
    return (await controlPlaneOf(this.target)).routes.length > 0;
  }

  async needControlPlane(): Promise<void> {
    if (!(await this.hasControlPlane())) this.skip('target has no /_mock control plane (no /_mock/openapi.json)');
  }

  /**
   * Checks one named rule and keeps going when it breaks: the runner reports every broken rule of
   * the contract. Skips and setup failures still stop the contract. A `kind` other than the
   * contract's (`labelmock` inside an interface contract) is checked only when that tag is selected.
   */
  async rule(name: string, check: () => unknown, kind?: Kind): Promise<void> {
    if (kind && !checksKind(kind)) {
      noteUnchecked(name);
      return;
    }
    const before = this.exchanges.length;
    try {
      await check();
    } catch (err) {
      if (!(err instanceof ContractFailure) || err instanceof SetupFailure) throw err;
      const ruleKind = kind ?? err.kind;
      this.failures.push({
        rule: name,
        ...(ruleKind && { kind: ruleKind }),
        setup: false,
        message: err.message,
        exchange: err.exchange ?? this.exchanges.at(-1) ?? this.exchanges[before],
      });
    }
  }

  /** Registers an undo step; the runner runs them newest first in a finally block. */
  defer(cleanup: () => Promise<void>): void {
    this.cleanups.push(cleanup);
  }

  /** Cancels what the contract created, best effort: a shared account is left with no pending test tasks. */
  async cancelCreated(): Promise<void> {
    if (this.target.cancelCreated === false) return;
    for (const { client, taskId } of this.created.splice(0)) {
      try {
        await client.post(`/v1/task/${taskId}/cancel`, undefined, { raw: true });
      } catch {
        // Best effort: a task that is gone or finished stays as it is.
      }
    }
  }

  async runCleanups(): Promise<void> {
    const errors: string[] = [];
    for (const cleanup of this.cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (err) {
        errors.push((err as Error).message);
      }
    }
    if (errors.length > 0) throw new Error(`cleanup failed: ${errors.join('; ')}`);
  }
}

export { SkipSignal };
