import type { RuleFailure } from './contract.js';
import type { ContractResult } from './runner.js';
import type { Exchange } from './target.js';

/** Reporters: pretty lines for people, JSON for scripts, JUnit XML for CI test tabs. */

export interface Summary {
  passed: number;
  failed: number;
  setupFailed: number;
  skipped: number;
  total: number;
}

export function summarize(results: readonly ContractResult[]): Summary {
  const count = (status: ContractResult['status']) => results.filter((r) => r.status === status).length;
  return {
    passed: count('passed'),
    failed: count('failed'),
    setupFailed: count('setup-failed'),
    skipped: count('skipped'),
    total: results.length,
  };
}

export function summaryLine(summary: Summary): string {
  return (
    `${summary.passed} passed, ${summary.failed} failed, ` +
    `${summary.setupFailed} setup failed, ${summary.skipped} skipped`
  );
}

/** The exchange as lines a server's author can act on without reading the kit. */
function exchangeLines(exchange: Exchange | undefined): string[] {
  if (!exchange) return [];
  const lines = [`request: ${exchange.method} ${exchange.path}`];
  if (exchange.requestBody !== undefined) lines.push(`request body: ${exchange.requestBody}`);
  if (exchange.error) lines.push(`error: ${exchange.error}`);
  else {
    lines.push(`status: ${exchange.status}`);
    lines.push(`response body: ${exchange.responseBody === '' ? '(empty)' : exchange.responseBody}`);
  }
  return lines;
}

function failureLines(failure: RuleFailure): string[] {
  const kind = failure.kind ? ` (${failure.kind}'s choice)` : '';
  const rule = failure.rule ? ` "${failure.rule}"` : '';
  const head = `${failure.setup ? 'setup' : 'rule'}${rule}${kind}: ${failure.message}`;
  return [head, ...exchangeLines(failure.exchange).map((line) => `  ${line}`)];
}

const LABEL: Record<ContractResult['status'], string> = {
  passed: 'PASS ',
  failed: 'FAIL ',
  'setup-failed': 'SETUP',
  skipped: 'SKIP ',
};

/**
 * Heads the error of a contract in which only rules of another kind than its own broke (labelmock's
 * wording inside an interface contract): contracts/in-process.test.ts writes it, scripts/mutants
 * reads it so that such a failure does not count as catching a mutant of the interface.
 */
export const OTHER_KINDS_ONLY = "only labelmock's choices broke";

/** Rules of unselected kinds, said once so a pass is not read as more than it checked. */
const uncheckedNote = (result: ContractResult) =>
  result.unchecked.length > 0 ? `; not checked without --tags labelmock: ${result.unchecked.join(', ')}` : '';

/** One line per contract; failures add where the rule is written and one block per broken rule. */
export function formatPretty(result: ContractResult): string {
  const tags = `[${result.tags.join(',')}]`;
  if (result.status === 'passed')
    return `${LABEL.passed} ${result.name} ${tags} (${result.ms} ms${uncheckedNote(result)})`;
  if (result.status === 'skipped') return `${LABEL.skipped} ${result.name} ${tags}: ${result.message}`;
  const lines = [`${LABEL[result.status]} ${result.name} ${tags}`];
  if (result.cites) lines.push(`      cites: ${result.cites}`);
  for (const failure of result.failures) lines.push(...failureLines(failure).map((line) => `      ${line}`));
  return lines.join('\n');
}

export function formatJson(results: readonly ContractResult[]): string {
  return `${JSON.stringify({ summary: summarize(results), results }, null, 2)}\n`;
}

/** XML 1.0 text: the five entities escaped, characters XML cannot carry dropped. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** One testsuite per tag combination, one testcase per contract; setup failures are JUnit errors. */
export function formatJunit(results: readonly ContractResult[], suiteName = 'labelmock-contracts'): string {
  const summary = summarize(results);
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const totalMs = results.reduce((sum, r) => sum + r.ms, 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlEscape(suiteName)}" tests="${summary.total}" ` +
      `failures="${summary.failed}" errors="${summary.setupFailed}" ` +
      `skipped="${summary.skipped}" time="${seconds(totalMs)}">`,
  ];
  const groups = new Map<string, ContractResult[]>();
  for (const result of results) {
    const key = result.tags.join(',');
    groups.set(key, [...(groups.get(key) ?? []), result]);
  }
  for (const [tags, group] of groups) {
    const s = summarize(group);
    const ms = group.reduce((sum, r) => sum + r.ms, 0);
    lines.push(
      `  <testsuite name="${xmlEscape(tags)}" tests="${s.total}" ` +
        `failures="${s.failed}" errors="${s.setupFailed}" skipped="${s.skipped}" time="${seconds(ms)}">`,
    );
    for (const result of group) {
      const open =
        `    <testcase classname="${xmlEscape(`contracts.${tags}`)}" ` +
        `name="${xmlEscape(result.name)}" time="${seconds(result.ms)}"`;
      if (result.status === 'passed') {
        lines.push(`${open}/>`);
        continue;
      }
      lines.push(`${open}>`);
      if (result.status === 'skipped') lines.push(`      <skipped message="${xmlEscape(result.message)}"/>`);
      else {
        const element = result.status === 'failed' ? 'failure' : 'error';
        const detail = result.failures.flatMap(failureLines).join('\n');
        const first = result.failures[0]?.message ?? result.message;
        lines.push(`      <${element} message="${xmlEscape(first)}">${xmlEscape(detail)}</${element}>`);
      }
      lines.push('    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}
