import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StartedServer } from './server.js';

export interface Row {
  item: string;
  measure: string;
  figure: string;
}

export interface Ctx {
  root: string;
  server: StartedServer;
  rows: Row[];
  row(item: string, measure: string, figure: string): void;
}

/** A valid imageannotation request from the fixtures, without its callback (no request leaves this machine). */
export function imageBody(root: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const body = JSON.parse(readFileSync(join(root, 'fixtures/tasks/imageannotation.create.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  delete body.callback_url;
  return { ...body, ...overrides };
}

export function printTable(rows: Row[]): void {
  const width = (pick: (r: Row) => string, title: string) => Math.max(title.length, ...rows.map((r) => pick(r).length));
  const [itemWidth, measureWidth] = [width((r) => r.item, 'item'), width((r) => r.measure, 'measure')];
  const line = (a: string, b: string, c: string) => `| ${a.padEnd(itemWidth)} | ${b.padEnd(measureWidth)} | ${c} |`;
  console.log(line('item', 'measure', 'figure'));
  console.log(`|${'-'.repeat(itemWidth + 2)}|${'-'.repeat(measureWidth + 2)}|---|`);
  for (const r of rows) console.log(line(r.item, r.measure, r.figure));
}

/** Runs the wanted items in order; one that throws becomes a row saying so, and the rest still run. */
export async function runItems(
  ctx: Ctx,
  round: string,
  items: [string, (ctx: Ctx) => Promise<void>][],
  wanted: (item: string) => boolean,
): Promise<void> {
  for (const [item, run] of items) {
    if (!wanted(item)) continue;
    console.log(`... ${item}`);
    await run(ctx).catch((err) => ctx.row(item, round, `script error: ${(err as Error).message}`));
  }
}
