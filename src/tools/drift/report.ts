import { type Difference, type DifferenceKind, signatureOf } from './compare.js';
import type { ExchangeReport } from './replay.js';

/**
 * Drift per operation, as people (pretty), scripts (JSON) and CI test tabs (JUnit) read it. Each drift has a
 * signature (`GET /v1/task/{taskId} missing work_started`); a baseline lists accepted ones, so CI fails only on
 * drift it has not seen.
 */

interface Drift {
  signature: string;
  kind: DifferenceKind;
  path: string;
  /** The first exchange that showed it, and what each side had there. */
  example: { index: number; recorded?: string; labelmock?: string };
  /** In the baseline: known, not failing. */
  accepted: boolean;
}

interface OperationDrift {
  operation: string;
  exchanges: number;
  drift: Drift[];
}

export interface DriftSummary {
  exchanges: number;
  operations: OperationDrift[];
  /** Drift not in the baseline: what fails the run. */
  new: number;
}

export function summarize(reports: readonly ExchangeReport[], accepted: ReadonlySet<string>): DriftSummary {
  const operations = new Map<string, OperationDrift>();
  for (const report of reports) {
    let operation = operations.get(report.operation);
    if (!operation) {
      operation = { operation: report.operation, exchanges: 0, drift: [] };
      operations.set(report.operation, operation);
    }
    operation.exchanges += 1;
    for (const difference of report.differences) add(operation, report.index, difference, accepted);
  }
  const list = [...operations.values()];
  return {
    exchanges: reports.length,
    operations: list,
    new: list.flatMap((o) => o.drift).filter((d) => !d.accepted).length,
  };
}

function add(operation: OperationDrift, index: number, difference: Difference, accepted: ReadonlySet<string>): void {
  const signature = signatureOf(operation.operation, difference);
  if (operation.drift.some((known) => known.signature === signature)) return;
  operation.drift.push({
    signature,
    kind: difference.kind,
    path: difference.path,
    example: {
      index,
      ...(difference.recorded !== undefined && { recorded: difference.recorded }),
      ...(difference.mock !== undefined && { labelmock: difference.mock }),
    },
    accepted: accepted.has(signature),
  });
}

/** What a drift means, from labelmock's side. */
function sentence(drift: Drift): string {
  const { recorded, labelmock } = drift.example;
  const where = drift.path || 'the answer';
  switch (drift.kind) {
    case 'status':
      return `status: recorded ${recorded}, labelmock ${labelmock}`;
    case 'missing':
      return `${where}: recorded (${recorded}), labelmock has none`;
    case 'extra':
      return `${where}: labelmock has it (${labelmock}), the recording does not`;
    case 'type':
      return `${where}: recorded a ${recorded}, labelmock a ${labelmock}`;
    case 'value':
      return `${where}: recorded ${recorded}, labelmock ${labelmock}`;
  }
}

export function pretty(summary: DriftSummary): string {
  const lines = [`labelmock drift: ${summary.exchanges} exchange(s), ${summary.operations.length} operation(s)`];
  for (const { operation, exchanges, drift } of summary.operations) {
    const fresh = drift.filter((d) => !d.accepted);
    const mark = fresh.length > 0 ? 'x' : 'ok';
    lines.push(`${mark} ${operation} (${exchanges} exchange(s))`);
    for (const d of drift) {
      lines.push(`    ${d.accepted ? '(accepted) ' : ''}${sentence(d)}   [exchange ${d.example.index}]`);
    }
  }
  const total = summary.operations.reduce((n, o) => n + o.drift.length, 0);
  lines.push(`${total} drift(s), ${summary.new} new`);
  return `${lines.join('\n')}\n`;
}

export const json = (summary: DriftSummary) => `${JSON.stringify(summary, null, 2)}\n`;

const xml = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);

export function junit(summary: DriftSummary): string {
  const failures = summary.operations.filter((o) => o.drift.some((d) => !d.accepted)).length;
  const cases = summary.operations.map(({ operation, drift }) => {
    const fresh = drift.filter((d) => !d.accepted);
    const open = `  <testcase classname="labelmock.drift" name="${xml(operation)}">`;
    if (fresh.length === 0) return `${open}</testcase>`;
    const body = fresh.map((d) => xml(sentence(d))).join('\n');
    return `${open}\n    <failure message="${fresh.length} drift(s)">${body}</failure>\n  </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuite name="labelmock drift" tests="${summary.operations.length}" failures="${failures}">`,
    ...cases,
    '</testsuite>',
    '',
  ].join('\n');
}

/** A baseline file: the signatures accepted, one list. */
export function baselineText(summary: DriftSummary): string {
  const accepted = summary.operations.flatMap((o) => o.drift.map((d) => d.signature)).sort();
  return `${JSON.stringify({ accepted }, null, 2)}\n`;
}
