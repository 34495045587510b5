/**
 * What one server may hold, so memory has a ceiling whatever keys and uploads arrive. The CLI sets
 * them (--max-tenants, --max-file-bytes-per-tenant); the defaults suit a developer box or a CI runner.
 */
export interface StoreLimits {
  /** Tenants held at once: those holding state plus those serving a request right now. */
  maxTenants: number;
  /** Uploaded file bytes one tenant may hold (imported files hold none). */
  maxFileBytesPerTenant: number;
}

/** Far more than any test suite uses, and still only a few hundred MB if each held a little. */
export const DEFAULT_MAX_TENANTS = 10_000;

/** 512 MiB: a few uploads of the interface's largest size (80 MB), bounded per tenant. */
export const DEFAULT_MAX_FILE_BYTES_PER_TENANT = 512 * 1024 * 1024;

export const DEFAULT_STORE_LIMITS: StoreLimits = {
  maxTenants: DEFAULT_MAX_TENANTS,
  maxFileBytesPerTenant: DEFAULT_MAX_FILE_BYTES_PER_TENANT,
};
