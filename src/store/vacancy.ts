import { isDeepStrictEqual } from 'node:util';
import type { TenantSettings } from '../domain/settings.js';
import { rateWindowOpen } from './rate-window.js';
import { ownerRecord } from './team.js';
import type { Tenant } from './tenant.js';

/**
 * Whether a tenant holds nothing a later request could tell apart from a brand-new tenant. Such a
 * tenant is dropped when its last request ends and made again by the next one, so a key that only
 * reads (or a flood of random keys in open mode) costs no memory once answered.
 *
 * Every field of Tenant that can hold state must be looked at here: a field left out would be lost
 * when the tenant is dropped (test/tenant-memory.test.ts fails when Tenant gains a field, as a
 * reminder). Left out on purpose: the stamp high-water mark, which orders objects the tenant no
 * longer holds, and the lazily made owner-only team, which the next request makes the same again;
 * and the request journal, a record of traffic rather than state: it goes with the tenant, so it
 * never keeps one that would otherwise go (an expired idempotency record's tenant, say). The warning tally
 * is kept, though it is traffic too: a suite reads it after its run, and a key that only reads must not lose it
 * (--data-dir does not keep it: a restart starts every tally at zero). Left out too: the origin its clients
 * last used (the next request sets it again), and the
 * --data-dir change listener, which is plumbing, not state.
 */
export function holdsNothing(tenant: Tenant, defaults: () => TenantSettings, idempotencyRecords: number): boolean {
  return (
    idempotencyRecords === 0 &&
    tenant.tasks.size === 0 &&
    tenant.files.size === 0 &&
    tenant.training.lastSeq === 0 &&
    tenant.qualityTasks.size === 0 &&
    tenant.jobs.length === 0 &&
    tenant.callbacks.length === 0 &&
    tenant.faults.size === 0 &&
    tenant.warnings.isEmpty &&
    tenant.v2.isEmpty &&
    tenant.clockOffsetMs === 0 &&
    !rateWindowOpen(tenant.rateWindow, tenant.settings.rate_limit, tenant.now()) &&
    studioIsEmpty(tenant) &&
    teamIsPristine(tenant) &&
    // Near the end: the defaults are derived (an HMAC), worth making only for a tenant otherwise empty.
    isDeepStrictEqual(tenant.settings, defaults()) &&
    noProjectsOfItsMode(tenant)
  );
}

/**
 * Projects and batches live in the account, shared by both modes; a mode's own ones are its state
 * (the other mode's do not keep this tenant: they stay with the account while that tenant holds them).
 */
function noProjectsOfItsMode(tenant: Tenant): boolean {
  for (const record of tenant.shared.projects.values()) if (tenant.owns(record)) return false;
  return !tenant.shared.batches.all().some((record) => tenant.owns(record));
}

function studioIsEmpty(tenant: Tenant): boolean {
  const studio = tenant.studio;
  return studio.allGroups().length === 0 && studio.batchGroups.size === 0 && studio.priorityOrder === undefined;
}

/** No team yet, or only the owner exactly as made: no invitations, no assignments, no imported admin. */
function teamIsPristine(tenant: Tenant): boolean {
  const team = tenant.teamIfMade;
  if (!team) return true;
  const members = team.all();
  return members.length === 1 && isDeepStrictEqual(members[0], ownerRecord(tenant.account));
}
