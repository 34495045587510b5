// The rules a GitHub Actions workflow of this repository keeps, checked by `npm run lint`
// (scripts/lint-workflows.mjs): it validates against the workflow schema (@action-validator/core), every action
// it uses is pinned by a full commit SHA (a tag can be moved to other code), and permissions are least-privilege
// per job (none at the top, each job naming what it needs).
import { validateWorkflow } from '@action-validator/core';
import { parse } from 'yaml';

const PINNED = /^[^@\s]+@[0-9a-f]{40}$/;

/** Every `uses:` of a step or a job, with where it stands. */
function usesOf(workflow) {
  const found = [];
  for (const [name, job] of Object.entries(workflow.jobs ?? {})) {
    if (typeof job.uses === 'string') found.push({ at: `jobs.${name}.uses`, uses: job.uses });
    for (const [index, step] of (job.steps ?? []).entries()) {
      if (typeof step.uses === 'string') found.push({ at: `jobs.${name}.steps[${index}].uses`, uses: step.uses });
    }
  }
  return found;
}

/** What is wrong with a workflow's text, one line each (none: it keeps the rules). */
export function workflowProblems(text) {
  const { errors } = validateWorkflow(text);
  const problems = errors.map((e) => `schema: ${e.path ?? ''} ${e.title}${e.detail ? ` (${e.detail})` : ''}`);
  if (problems.length > 0) return problems;
  const workflow = parse(text);
  for (const { at, uses } of usesOf(workflow)) {
    // A workflow of this repository (./) is reviewed with it; anything else is pinned by its commit.
    if (!uses.startsWith('./') && !PINNED.test(uses)) problems.push(`${at}: "${uses}" is not pinned by a commit SHA`);
  }
  const top = workflow.permissions;
  if (!(top && typeof top === 'object' && Object.keys(top).length === 0)) {
    problems.push('permissions: the workflow grants none at the top (permissions: {}); each job names its own');
  }
  for (const [name, job] of Object.entries(workflow.jobs ?? {})) {
    if (job.permissions === undefined) problems.push(`jobs.${name}: names no permissions`);
    if (job.permissions === 'write-all') problems.push(`jobs.${name}: write-all is not least privilege`);
  }
  return problems;
}
