import { randomBytes } from 'node:crypto';
import { Client, type Target } from './target.js';

export { eventually } from './eventually.js';
export * from './expect.js';

/**
 * The registry of contracts and the context each one runs with. Suite files call `contract(...)`
 * at import time; runners (the CLI, the in-process vitest harness) read the registry.
 */
export type ContractFn = (ctx: ContractContext) => Promise<void>;

export interface ContractDefinition {
  name: string;
  fn: ContractFn;
}

const registry: ContractDefinition[] = [];

export function contract(name: string, fn: ContractFn): void {
  if (registry.some((entry) => entry.name === name)) throw new Error(`Duplicate contract name: ${name}`);
  registry.push({ name, fn });
}

export function registeredContracts(): readonly ContractDefinition[] {
  return registry;
}

/** Thrown by `skip`: the runner reports the contract as skipped with the reason. */
export class SkipSignal extends Error {
  override name = 'SkipSignal';
}

/** Probes are cached per target: one `GET /_mock/clock` per run, not one per contract. */
const controlPlaneProbes = new WeakMap<Target, Promise<boolean>>();

export class ContractContext {
  /** The main key's client. */
  readonly api: Client;
  private readonly cleanups: (() => Promise<void>)[] = [];

  constructor(readonly target: Target) {
    this.api = new Client(target, target.apiKey);
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
    return new Client(this.target, this.target.otherApiKey);
  }

  hasControlPlane(): Promise<boolean> {
    let probe = controlPlaneProbes.get(this.target);
    if (!probe) {
      probe = this.api.get('/_mock/clock').then(
        (res) => res.status === 200,
        () => false,
      );
      controlPlaneProbes.set(this.target, probe);
    }
    return probe;
  }

  async needControlPlane(): Promise<void> {
    if (!(await this.hasControlPlane())) this.skip('target has no /_mock control plane');
  }

  /** Registers an undo step; the runner runs them newest first in a finally block. */
  defer(cleanup: () => Promise<void>): void {
    this.cleanups.push(cleanup);
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
