import { describe, expect, it } from 'vitest';
import { answeredBy, clusterForFile, keyForms } from './cluster.js';

/** A shard that dies, comes back, or leaves: its accounts never get another shard's answers. */

const { cluster, routers } = clusterForFile();

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
const names = (count: number, tag: string) => Array.from({ length: count }, (_, i) => `${tag}-${i}`);

/** Which shard a router sends each account to. */
async function placement(base: string, accounts: string[]): Promise<Map<string, string>> {
  const placed = new Map<string, string>();
  for (const account of accounts) placed.set(account, String((await answeredBy(base, basic(`test_${account}`))).shard));
  return placed;
}

describe.each(['haproxy', 'nginx'] as const)('through %s', (router) => {
  it("removing a shard moves only that shard's accounts", async () => {
    const accounts = names(300, `move-${router}`);
    const before = await placement(routers[router], accounts);
    const reduced = await cluster[router]('shard-2');
    const after = await placement(reduced, accounts);
    const moved = accounts.filter((account) => before.get(account) !== after.get(account));
    const onRemoved = accounts.filter((account) => before.get(account) === 'shard-2');
    expect(onRemoved.length).toBeGreaterThan(0);
    expect(moved.sort()).toEqual(onRemoved.sort());
    expect(new Set(moved.map((account) => after.get(account)))).toEqual(new Set(['shard-0', 'shard-1']));
  });
});

it("a killed shard's accounts get 502 or 503, never another's answer; a restart brings back its writes", async () => {
  const victim = cluster.shards[1];
  if (!victim) throw new Error('no shard-1');
  const written: { base: string; account: string; taskId: string }[] = [];
  const survivors: { base: string; account: string }[] = [];
  for (const [router, base] of Object.entries(routers)) {
    const placed = await placement(base, names(60, `kill-${router}`));
    for (const [account, shard] of placed) {
      if (shard !== victim.id) {
        survivors.push({ base, account });
        continue;
      }
      const created = await fetch(`${base}/v1/task/categorization`, {
        method: 'POST',
        headers: { authorization: basic(`test_${account}`), 'content-type': 'application/json' },
        body: JSON.stringify({ attachment: 'https://example.com/a.jpg', categories: ['a', 'b'], instruction: account }),
      });
      // Acknowledged: with --data-dir a 200 means the change is on disk.
      expect(created.status).toBe(200);
      written.push({ base, account, taskId: ((await created.json()) as { task_id: string }).task_id });
    }
  }
  expect(written.length).toBeGreaterThan(10);

  await cluster.kill(victim);
  for (const { base, account } of written) {
    for (const form of keyForms(account)) {
      const seen = await answeredBy(base, form);
      expect([502, 503]).toContain(seen.status);
      expect(seen.shard).toBeNull();
    }
    const write = await fetch(`${base}/v1/task/categorization`, {
      method: 'POST',
      headers: { authorization: basic(`live_${account}`), 'content-type': 'application/json' },
      body: JSON.stringify({ attachment: 'https://example.com/b.jpg', categories: ['a', 'b'] }),
    });
    expect([502, 503]).toContain(write.status);
  }
  for (const { base, account } of survivors)
    expect((await answeredBy(base, basic(`test_${account}`))).status).toBe(200);

  await cluster.startShard(victim);
  for (const { base, account, taskId } of written) {
    const read = await fetch(`${base}/v1/task/${taskId}`, { headers: { authorization: basic(`${account}|test`) } });
    expect(read.status).toBe(200);
    expect(read.headers.get('labelmock-shard')).toBe(victim.id);
    expect(await read.json()).toMatchObject({ task_id: taskId, instruction: account, status: 'pending' });
    // The writes refused while it was down did not happen anywhere.
    const live = await fetch(`${base}/v1/tasks`, { headers: { authorization: basic(`live_${account}`) } });
    expect(((await live.json()) as { docs: unknown[] }).docs).toEqual([]);
  }
});
