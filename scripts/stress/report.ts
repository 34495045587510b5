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
  const w = [width((r) => r.item, 'item'), width((r) => r.measure, 'measure')];
  const line = (a: string, b: string, c: string) => `| ${a.padEnd(w[0])} | ${b.padEnd(w[1])} | ${c} |`;
  console.log(line('item', 'measure', 'figure'));
  console.log(`|${'-'.repeat(w[0] + 2)}|${'-'.repeat(w[1] + 2)}|---|`);
  for (const r of rows) console.log(line(r.item, r.measure, r.figure));
}
