import { describe, expect, it } from 'vitest';
import { readConfig } from '../src/config/index.js';
import { ManualClock } from '../src/runtime/clock.js';
import { AccountState } from '../src/store/account.js';
import { DEFAULT_MAX_TENANTS } from '../src/store/limits.js';
import { Store } from '../src/store/store.js';
import { Tenant } from '../src/store/tenant.js';
import { makeApp } from './helpers.js';

const tenantsOf = (t: ReturnType<typeof makeApp>) => t.app.services.store.tenantCount;
const accountsOf = (t: ReturnType<typeof makeApp>) => t.app.services.store.accountCount;

const LIMIT_MESSAGE =
  'Tenant limit reached: this server already holds 2 tenants (--max-tenants, LABELMOCK_MAX_TENANTS). ' +
  'Keys that already have a tenant keep working; POST /_mock/reset with one of them frees its tenant.';

describe('tenants that hold nothing cost nothing', () => {
  it('GET /v1/tasks by new keys answers an empty list and keeps no tenant or account', async () => {
    const t = makeApp();
    for (let i = 0; i < 50; i += 1) {
      const res = await t.call('GET', '/v1/tasks', { key: `test_reader_${i}` });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ docs: [], total: 0 });
    }
    expect(tenantsOf(t)).toBe(0);
    expect(accountsOf(t)).toBe(0);
  });

  it('GET /v1/teams by a new key answers the owner and keeps no tenant', async () => {
    const t = makeApp();
    const res = await t.call('GET', '/v1/teams', { key: 'test_team_reader' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([expect.objectContaining({ email: 'team_reader@labelmock.test', role: 'admin' })]);
    expect(tenantsOf(t)).toBe(0);
  });

  it('GET /_mock/settings answers the same callback_auth_key before and after the tenant was dropped', async () => {
    const t = makeApp();
    const first = await t.call('GET', '/_mock/settings');
    expect(first.status).toBe(200);
    expect(first.body.callback_auth_key).toMatch(/^[0-9a-f]{32}$/);
    expect(tenantsOf(t)).toBe(0);
    const again = await t.call('GET', '/_mock/settings');
    expect(again.body).toEqual(first.body);
    const other = await t.call('GET', '/_mock/settings', { key: 'live_acme' });
    expect(other.body.callback_auth_key).not.toBe(first.body.callback_auth_key);
  });

  it('GET /_mock/settings of another app answers another callback_auth_key', async () => {
    const one = await makeApp().call('GET', '/_mock/settings');
    const two = await makeApp().call('GET', '/_mock/settings');
    expect(one.status).toBe(200);
    expect(one.body.callback_auth_key).not.toBe(two.body.callback_auth_key);
  });

  it('PATCH /_mock/settings keeps the tenant with its settings', async () => {
    const t = makeApp();
    const res = await t.call('PATCH', '/_mock/settings', { body: { completion: { mode: 'immediate' } } });
    expect(res.status).toBe(200);
    expect(tenantsOf(t)).toBe(1);
    expect((await t.call('GET', '/_mock/settings')).body.completion.mode).toBe('immediate');
  });

  it('PATCH /_mock/settings back to the defaults lets the tenant go', async () => {
    const t = makeApp();
    await t.call('PATCH', '/_mock/settings', { body: { completion: { mode: 'immediate' } } });
    const res = await t.call('PATCH', '/_mock/settings', { body: { completion: { mode: 'manual' } } });
    expect(res.status).toBe(200);
    expect(res.body.completion.mode).toBe('manual');
    expect(tenantsOf(t)).toBe(0);
  });

  it('POST /_mock/clock/advance keeps the tenant and its clock', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/_mock/clock/advance', { body: { ms: 5000 } });
    expect(res.status).toBe(200);
    expect(tenantsOf(t)).toBe(1);
    expect((await t.call('GET', '/_mock/clock')).body.offset_ms).toBe(5000);
  });

  it('POST /v1/projects keeps the tenant; POST /_mock/reset frees it and its account', async () => {
    const t = makeApp();
    await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name: 'kept' } });
    expect(tenantsOf(t)).toBe(1);
    expect((await t.call('GET', '/v1/projects/kept')).status).toBe(200);
    const reset = await t.call('POST', '/_mock/reset');
    expect(reset.status).toBe(200);
    expect(tenantsOf(t)).toBe(0);
    expect(accountsOf(t)).toBe(0);
  });

  it('GET /v1/projects by the test key, after the live key made a project, keeps only the live tenant', async () => {
    const t = makeApp();
    await t.call('POST', '/v1/projects', { key: 'live_acme', body: { type: 'imageannotation', name: 'live-made' } });
    const res = await t.call('GET', '/v1/projects');
    expect(res.status).toBe(200);
    expect(res.body.map((p: { name: string }) => p.name)).toEqual(['live-made']);
    expect(tenantsOf(t)).toBe(1);
    expect(t.app.services.store.findTenant('live:acme')).toBeDefined();
  });

  it('POST /v1/teams/invite keeps the tenant with its invitation', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/teams/invite', { body: { emails: ['a@example.com'], team_role: 'member' } });
    expect(res.status).toBe(200);
    expect(tenantsOf(t)).toBe(1);
    expect((await t.call('GET', '/v1/teams')).body).toHaveLength(2);
  });

  it('a tenant in use by a request is not dropped when another request of the same key ends', () => {
    const store = new Store(new ManualClock(), { mode: 'manual', delay_ms: 0 });
    const first = store.acquire('acme', 'test') as Tenant;
    const second = store.acquire('acme', 'test') as Tenant;
    expect(second).toBe(first);
    store.release(second);
    expect(store.tenantCount).toBe(1);
    store.release(first);
    expect(store.tenantCount).toBe(0);
  });

  it('every field of Tenant is one the vacancy check knows (src/store/vacancy.ts)', () => {
    const tenant = new Tenant(
      'acme',
      'test',
      new ManualClock(),
      {
        completion: { mode: 'manual', delay_ms: 0 },
        callback_auth_key: 'k',
        callbacks: {} as never,
        rate_limit: null,
        unknown_params: 'lenient',
      },
      new AccountState('acme'),
    );
    // A new field that can hold state must be checked in holdsNothing(), or it is lost when an
    // otherwise empty tenant is dropped; then add it here.
    expect(Object.keys(tenant).sort()).toEqual(
      [
        'account',
        'callbacks',
        // The v2 catalog, behind the `v2` accessor (holdsNothing checks tenant.v2.isEmpty).
        'catalog',
        'clock',
        'clockOffsetMs',
        'faults',
        'feed',
        'files',
        // The order things happened in, for the timeline (in memory, of what the tenant holds; nothing of its own).
        'happenedAt',
        'happenings',
        'inUse',
        'jobs',
        'key',
        'lastStampMs',
        'mode',
        'origin',
        'qualityTasks',
        'rateWindow',
        'requestJournal',
        // A replaced tenant's flag: its jobs and waiting callbacks never run (it holds no state of its own).
        'retired',
        'settings',
        // Plumbing like origin: the shard (--shard-id) its links name, set again by every request.
        'shard',
        'shared',
        'studio',
        'tasks',
        'teamState',
        'training',
        'warnings',
      ].sort(),
    );
  });
});

describe('--max-tenants', () => {
  it('GET /v1/tasks by a new key past --max-tenants is a 503 naming the limit; held keys keep working', async () => {
    const t = makeApp({ config: { maxTenants: 2 } });
    for (const key of ['test_one', 'test_two'])
      await t.call('POST', '/v1/projects', { key, body: { type: 'imageannotation', name: 'p' } });
    const refused = await t.call('GET', '/v1/tasks', { key: 'test_three' });
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ status_code: 503, error: LIMIT_MESSAGE });
    const held = await t.call('GET', '/v1/projects/p', { key: 'test_one' });
    expect(held.status).toBe(200);
    expect(tenantsOf(t)).toBe(2);
  });

  it('POST /_mock/reset under --max-tenants frees a place for a new key', async () => {
    const t = makeApp({ config: { maxTenants: 1 } });
    await t.call('PATCH', '/_mock/settings', { key: 'test_one', body: { completion: { mode: 'immediate' } } });
    expect((await t.call('GET', '/v1/tasks', { key: 'test_two' })).status).toBe(503);
    expect((await t.call('POST', '/_mock/reset', { key: 'test_one' })).status).toBe(200);
    const res = await t.call('GET', '/v1/tasks', { key: 'test_two' });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(0);
  });

  it('GET /v1/tasks by many new keys at --max-tenants 1 answers each, since none is kept', async () => {
    const t = makeApp({ config: { maxTenants: 1 } });
    for (let i = 0; i < 20; i += 1) expect((await t.call('GET', '/v1/tasks', { key: `test_r${i}` })).status).toBe(200);
  });

  it('reads --max-tenants, then LABELMOCK_MAX_TENANTS, default 10000', () => {
    expect(readConfig([], {}).maxTenants).toBe(DEFAULT_MAX_TENANTS);
    expect(DEFAULT_MAX_TENANTS).toBe(10_000);
    expect(readConfig(['--max-tenants', '5'], { LABELMOCK_MAX_TENANTS: '7' }).maxTenants).toBe(5);
    expect(readConfig([], { LABELMOCK_MAX_TENANTS: '7' }).maxTenants).toBe(7);
    expect(() => readConfig(['--max-tenants', '0'], {})).toThrow();
  });
});
