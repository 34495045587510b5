import type { z } from 'zod';

/** Where a rule broke: the field path as the client wrote it, from the body (or the response) down. */
export type IssuePath = (string | number)[];

/** A broken rule found outside a zod parse: the field's path and the rule it broke. */
export interface FitIssue {
  path: IssuePath;
  message: string;
}

/**
 * The one way a check reports a broken rule: the field's path and the rule, worded to read after
 * the field ("must be at most 5"). Create rules report into zod (so their issues join the schema's),
 * the other checks into a list; the check itself does not know which.
 */
export type Report = (path: IssuePath, rule: string) => void;

/** Runs a check and answers the issues it reported, in order. */
export function collectIssues(check: (report: Report) => void): FitIssue[] {
  const issues: FitIssue[] = [];
  check((path, message) => issues.push({ path, message }));
  return issues;
}

/** A reporter that adds each issue to a zod refinement, for rules run inside a schema's superRefine. */
export const reportInto =
  (ctx: z.RefinementCtx): Report =>
  (path, message) =>
    ctx.addIssue({ code: 'custom', path, message });

/** Passes issues found by a helper that answers a list on to a reporter. */
export function reportAll(report: Report, issues: readonly FitIssue[]): void {
  for (const issue of issues) report(issue.path, issue.message);
}
