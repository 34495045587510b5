import type { Tenant } from '../store/tenant.js';

/** Files in the tenant's exported state. Placeholder: filled in by the files work. */
export function exportFiles(_tenant: Tenant): unknown[] {
  return [];
}

/** Loads exported files into a fresh tenant. Placeholder: filled in by the files work. */
export function importFiles(_tenant: Tenant, _files: unknown[]): void {}
