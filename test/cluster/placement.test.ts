import { describe, expect, it } from 'vitest';
import { answeredBy, clusterForFile, keyForms, SHARD_IDS } from './cluster.js';

const { routers } = clusterForFile();

const accounts = (count: number, tag: string) => Array.from({ length: count }, (_, i) => `${tag}${i}x${i * 7919}`);

describe.each(['haproxy', 'nginx'] as const)('through %s', (router) => {
  it('every key form of 200 accounts reaches one shard', async () => {
    const base = routers[router];
    const split: string[] = [];
    for (const account of accounts(200, 'acct')) {
      const seen = await Promise.all(keyForms(account).map((form) => answeredBy(base, form)));
      expect(seen.every(({ status }) => status === 200)).toBe(true);
      if (new Set(seen.map(({ shard }) => shard)).size !== 1) split.push(account);
    }
    expect(split).toEqual([]);
  });

  it('300 accounts spread over the three shards within 35% of an even share', async () => {
    const base = routers[router];
    const counts = new Map<string, number>();
    for (const account of accounts(300, 'spread')) {
      const { shard } = await answeredBy(base, `Basic ${Buffer.from(`test_${account}:`).toString('base64')}`);
      counts.set(String(shard), (counts.get(String(shard)) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual([...SHARD_IDS]);
    // Counts of accounts, not times: an even share is 100 of 300, and 35% either side of it is allowed.
    const even = 300 / SHARD_IDS.length;
    const uneven = [...counts].filter(([, count]) => Math.abs(count - even) > even * 0.35);
    expect(uneven).toEqual([]);
  });
});
