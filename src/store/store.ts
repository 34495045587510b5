import { createHmac, randomBytes } from 'node:crypto';
import type { UnknownParamsPolicy } from '../domain/lenience.js';
import { type CompletionSetting, DEFAULT_CALLBACK_SETTINGS, type RateLimit } from '../domain/settings.js';
import type { Clock } from '../runtime/clock.js';
import { AccountState } from './account.js';
import { Feed } from './feed.js';
import { IdempotencyStore } from './idempotency-store.js';
import { DEFAULT_STORE_LIMITS, type StoreLimits } from './limits.js';
import type { Mode } from './mode.js';
import { type StoreChange, Tenant, type TenantSettings, tenantKey } from './tenant.js';
import { holdsNothing } from './vacancy.js';
import { TallyBudget } from './warning-tally.js';

/**
 * All state of one app instance. Tenants are made on first use and dropped again when their last
 * request ends holding nothing (see vacancy.ts), so a key that only reads costs nothing afterwards.
 */
export class Store {
  private readonly tenants = new Map<string, Tenant>();
  private readonly accounts = new Map<string, AccountState>();
  readonly idempotency = new IdempotencyStore();
  readonly limits: StoreLimits;
  /** Every change to the store, one typed feed (StoreChange, tenant.ts): events, dependents, callbacks, persistence. */
  readonly changes = new Feed<StoreChange>();
  /** The ignored-parameter names all tenants' tallies keep (GET /_mock/warnings), bounded together. */
  readonly tallyBudget = new TallyBudget();
  /** Derives each tenant's default callback_auth_key: the same on every remake, unguessable across runs. */
  private readonly secret = randomBytes(32);

  constructor(
    private readonly clock: Clock,
    private readonly defaultCompletion: CompletionSetting,
    limits: Partial<StoreLimits> = {},
    /** Every new tenant's rate limit (--rate-limit); null: none. */
    private readonly defaultRateLimit: RateLimit | null = null,
    /** Every new tenant's handling of undeclared parameters (--unknown-params). */
    private readonly defaultUnknownParams: UnknownParamsPolicy = 'lenient',
  ) {
    this.limits = { ...DEFAULT_STORE_LIMITS, ...limits };
    this.idempotency.onStored = (key, entry) => this.changes.publish({ kind: 'idempotency_stored', key, entry });
  }

  /** Tenants held: those holding state plus those serving a request right now (for tests and the limit). */
  get tenantCount(): number {
    return this.tenants.size;
  }

  /** Accounts held (projects and batches are kept per account). */
  get accountCount(): number {
    return this.accounts.size;
  }

  /** The tenant, made if needed; never refused (requests come through acquire, which applies --max-tenants). */
  tenant(account: string, mode: Mode): Tenant {
    const key = tenantKey(account, mode);
    let tenant = this.tenants.get(key);
    if (!tenant) {
      const settings = this.defaultSettings(account, mode);
      const shared = this.accountState(account);
      tenant = new Tenant(account, mode, this.clock, settings, shared, this.changes, this.tallyBudget);
      this.tenants.set(key, tenant);
    }
    return tenant;
  }

  /** Every tenant held, for a snapshot of the whole store. */
  allTenants(): Tenant[] {
    return [...this.tenants.values()];
  }

  accountState(account: string): AccountState {
    let state = this.accounts.get(account);
    if (!state) {
      state = new AccountState(account);
      this.accounts.set(account, state);
    }
    return state;
  }

  /** Replaces the tenant with an empty one, dropping the projects and batches its mode made. */
  reset(account: string, mode: Mode): Tenant {
    const old = this.tenants.get(tenantKey(account, mode));
    if (old) {
      this.idempotency.forgetTenant(old.key);
      old.warnings.release();
      old.retired = true;
    }
    this.accountState(account).dropMode(mode);
    this.tenants.delete(tenantKey(account, mode));
    const fresh = this.tenant(account, mode);
    this.changes.publish({ kind: 'tenant_reset', tenant: fresh });
    return fresh;
  }

  findTenant(key: string): Tenant | undefined {
    return this.tenants.get(key);
  }

  /**
   * The tenant whose tasks a project or batch counts: the caller when it owns the record, else the account's
   * other mode. Looked up, never made: a read must not create the other mode's tenant.
   */
  ownerOf(tenant: Tenant, record: { readonly mode: Mode }): Tenant | undefined {
    return tenant.owns(record) ? tenant : this.findTenant(tenantKey(tenant.account, record.mode));
  }

  /**
   * The tenant for one request, held until release. Undefined when the key has no tenant and the
   * store already holds --max-tenants: existing tenants keep working, a new one is refused.
   */
  acquire(account: string, mode: Mode): Tenant | undefined {
    const isNew = !this.tenants.has(tenantKey(account, mode));
    if (isNew && this.tenants.size >= this.limits.maxTenants) return undefined;
    const tenant = this.tenant(account, mode);
    tenant.inUse += 1;
    return tenant;
  }

  /**
   * A request is done with the tenant. The tenant now under its key (a reset may have replaced the
   * one acquired) sheds its expired idempotency records, and goes if nothing is left in it.
   */
  release(tenant: Tenant): void {
    tenant.inUse -= 1;
    const current = this.tenants.get(tenant.key);
    if (!current || current.inUse > 0) return;
    this.idempotency.sweep(current.key, current.now());
    this.dropIfEmpty(current);
  }

  /**
   * Sweeps expired idempotency records of every tenant that has some, each against its own clock (the
   * app runs this on a timer), and drops tenants the sweep left holding nothing. Answers how many went.
   */
  sweepExpired(): number {
    let swept = 0;
    for (const key of this.idempotency.tenantsHolding()) {
      const tenant = this.tenants.get(key);
      const dropped = this.idempotency.sweep(key, tenant?.now() ?? Number.POSITIVE_INFINITY);
      swept += dropped;
      if (tenant && dropped > 0 && tenant.inUse === 0) this.dropIfEmpty(tenant);
    }
    return swept;
  }

  /**
   * The server's --completion flag sets the default of test tenants, mirroring the real service's
   * test mode; live tenants start manual (PATCH /_mock/settings changes either). --rate-limit applies to both
   * modes, as the real service limits live keys too. The callback key is
   * derived, not drawn, so a tenant dropped for holding nothing comes back with the same one.
   */
  defaultSettings(account: string, mode: Mode): TenantSettings {
    const completion = mode === 'test' ? { ...this.defaultCompletion } : { mode: 'manual' as const, delay_ms: 0 };
    const authKey = createHmac('sha256', this.secret).update(tenantKey(account, mode)).digest('hex').slice(0, 32);
    const callbacks = { ...DEFAULT_CALLBACK_SETTINGS };
    const rate_limit = this.defaultRateLimit && { ...this.defaultRateLimit };
    return { completion, callback_auth_key: authKey, callbacks, rate_limit, unknown_params: this.defaultUnknownParams };
  }

  /** Whether the tenant holds nothing a new one would not (see vacancy.ts). */
  isVacant(tenant: Tenant): boolean {
    const defaults = () => this.defaultSettings(tenant.account, tenant.mode);
    return holdsNothing(tenant, defaults, this.idempotency.heldBy(tenant.key));
  }

  /** Drops the tenant if it holds nothing and serves no request (a restored empty one, say). */
  dropIfEmpty(tenant: Tenant): void {
    if (tenant.inUse > 0 || !this.isVacant(tenant)) return;
    this.tenants.delete(tenant.key);
    // The account (projects, batches) goes with its last tenant; it is empty then, as both modes held nothing.
    const otherMode = tenantKey(tenant.account, tenant.mode === 'test' ? 'live' : 'test');
    const shared = this.accounts.get(tenant.account);
    if (!shared || this.tenants.has(otherMode)) return;
    if (shared.projects.size === 0 && shared.batches.lastSeq === 0) this.accounts.delete(tenant.account);
  }
}
