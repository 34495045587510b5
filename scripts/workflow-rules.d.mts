/** What is wrong with a workflow's text, one line each (none: it keeps the rules). See workflow-rules.mjs. */
export function workflowProblems(text: string): string[];
