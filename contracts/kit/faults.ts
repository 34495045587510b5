import type { ContractContext } from './contract.js';
import { expectStatus, setupStep } from './expect.js';
import type { Client } from './target.js';

/** A fault rule as the server holds it (POST /_mock/faults answers it): its id, and the fields it was given. */
export interface FaultRule {
  id: string;
  /** How often it fired so far. */
  fired: number;
  [field: string]: unknown;
}

/**
 * Adds a fault rule (POST /_mock/faults) for the rest of the contract and removes it afterwards; answers the
 * rule. Scope the rule to paths only this contract uses (a task it created), since runs can share an account.
 */
export async function withFaultRule(
  ctx: ContractContext,
  rule: Record<string, unknown>,
  client: Client = ctx.api,
): Promise<FaultRule> {
  const added = await setupStep('add a fault rule', async () => {
    const res = await client.post('/_mock/faults', rule);
    expectStatus(res, 200);
    return res.body;
  });
  ctx.defer(async () => {
    await client.delete(`/_mock/faults/${added.id}`, undefined, { raw: true });
  });
  return added;
}

/** The statuses of `count` reads of `path`, each seen as it is (no retry of a 429). */
export async function statusesOf(client: Client, path: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) statuses.push((await client.get(path, { raw: true })).status);
  return statuses;
}
