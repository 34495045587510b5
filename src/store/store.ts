import { randomBytes } from 'node:crypto';
import { DEFAULT_CALLBACK_SETTINGS, type CompletionSetting } from '../domain/settings.js';
import type { Clock } from '../runtime/clock.js';
import { AccountState } from './account.js';
import { IdempotencyStore } from './idempotency-store.js';
import { Tenant, tenantKey, type Mode, type TenantEvent, type TenantSettings } from './tenant.js';

/** All state of one app instance. Tenants are created on first use, so a new key costs nothing up front. */
export class Store {
  private readonly tenants = new Map<string, Tenant>();
  private readonly accounts = new Map<string, AccountState>();
  readonly idempotency = new IdempotencyStore();
  private readonly listeners: ((tenant: Tenant, event: TenantEvent) => void)[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly defaultCompletion: CompletionSetting,
  ) {}

  tenant(account: string, mode: Mode): Tenant {
    const key = tenantKey(account, mode);
    let tenant = this.tenants.get(key);
    if (!tenant) {
      tenant = new Tenant(account, mode, this.clock, this.defaultSettings(mode), this.accountState(account));
      const created = tenant;
      created.emit = (event) => this.listeners.forEach((listener) => listener(created, event));
      this.tenants.set(key, tenant);
    }
    return tenant;
  }

  /** Registers a listener for every tenant's events (callbacks, dependent tasks). */
  listen(listener: (tenant: Tenant, event: TenantEvent) => void): void {
    this.listeners.push(listener);
  }

  accountState(account: string): AccountState {
    let state = this.accounts.get(account);
    if (!state) {
      state = new AccountState();
      this.accounts.set(account, state);
    }
    return state;
  }

  /** Replaces the tenant with an empty one, dropping the projects and batches its mode made. */
  reset(account: string, mode: Mode): Tenant {
    const old = this.tenants.get(tenantKey(account, mode));
    if (old) this.idempotency.forgetTenant(old.key);
    this.accountState(account).dropMode(mode);
    this.tenants.delete(tenantKey(account, mode));
    return this.tenant(account, mode);
  }

  findTenant(key: string): Tenant | undefined {
    return this.tenants.get(key);
  }


  /**
   * The server's --completion flag sets the default of test tenants, mirroring the real service's
   * test mode; live tenants start manual (PATCH /_mock/settings changes either).
   */
  defaultSettings(mode: Mode): TenantSettings {
    const completion = mode === 'test' ? { ...this.defaultCompletion } : { mode: 'manual' as const, delay_ms: 0 };
    return { completion, callback_auth_key: randomBytes(16).toString('hex'), callbacks: { ...DEFAULT_CALLBACK_SETTINGS } };
  }
}
