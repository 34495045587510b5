import type { AppliedFault } from '../domain/faults/schemas.js';
import type { Lenience } from '../domain/lenience.js';
import type { Tenant } from '../store/tenant.js';

export interface Principal {
  key: string;
  account: string;
  mode: 'test' | 'live';
  /** What logs say of the account (runtime/fingerprint.ts): made once per key, with the principal. */
  fingerprint: string;
}

/** Hono context variables set by the edge middleware. */
export type AppEnv = {
  Variables: {
    principal: Principal;
    tenant: Tenant;
    /** Set by the fault middleware when it delayed or faulted the request (read by the request journal). */
    fault?: AppliedFault;
    /** How /v1 and /v2 read undeclared parameters and form text, and what they ignored (http/lenience.ts). */
    lenience?: Lenience;
    /**
     * The Labelmock-Warning text answered, for the request journal: read from here, never from the answer's
     * headers (touching c.res.headers makes @hono/node-server build a full Response, off its fast path).
     */
    warning?: string;
  };
};
