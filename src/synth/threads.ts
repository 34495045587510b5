import type { Task } from '../domain/tasks/task.js';
import type { Annotation } from '../domain/v2/annotations.js';
import type { Thread } from '../domain/v2/threads.js';
import { Rng } from '../runtime/random.js';

/**
 * The v2 threads of a task completed without given ones: one thread of one turn, the prompt (a chat
 * task's template variables, else its instruction) and the answer (the v1 response), with annotations
 * of three kinds. The same for the same task, and every annotation id is `<task_id>.a<n>`, so
 * GET /v2/annotation finds it without an index.
 */

const RATINGS = [1, 2, 3, 4, 5, 6, 7];

/** The task id of a synthesized annotation's id, or undefined for any other id. */
export function synthesizedAnnotationTask(annotationId: string): string | undefined {
  const at = annotationId.lastIndexOf('.a');
  return at > 0 && /^\d+$/.test(annotationId.slice(at + 2)) ? annotationId.slice(0, at) : undefined;
}

function promptOf(task: Task): string {
  const variables = (task.params as Record<string, unknown> | undefined)?.template_variables;
  if (variables && typeof variables === 'object') {
    const prompt = (variables as Record<string, unknown>).prompt;
    return typeof prompt === 'string' ? prompt : JSON.stringify(variables);
  }
  return task.instruction ?? `Task ${task.task_id}`;
}

function answerOf(task: Task): string {
  const response = task.response as Record<string, unknown> | undefined;
  for (const key of ['text', 'response', 'answer']) if (typeof response?.[key] === 'string') return response[key];
  return JSON.stringify(response ?? {});
}

export function synthesizeThreads(task: Task): Thread[] {
  const id = task.task_id;
  const rng = new Rng(`${id}:threads`);
  const rating: Annotation = {
    id: `${id}.a1`,
    key: 'rating',
    type: 'integer',
    value: rng.int(1, 7),
    possible_values: RATINGS,
    title: 'Rating',
    description: 'How good the response is, from 1 to 7',
  };
  const accepted: Annotation = {
    id: `${id}.a0`,
    key: 'accepted',
    type: 'boolean',
    value: rng.next() >= 0.2,
    possible_values: [true, false],
    title: 'Accepted',
    description: 'Whether the response meets the guidelines',
  };
  const summary: Annotation = {
    id: `${id}.a2`,
    key: 'summary',
    type: 'text',
    value: `Reviewed by labelmock (rating ${rating.value})`,
    title: 'Summary',
    description: "The reviewer's summary",
  };
  return [
    {
      id: `${id}.thread0`,
      turns: [
        {
          id: `${id}.turn0`,
          messages: [
            { role: 'user', content: { text: promptOf(task) }, source_id: 'labelmock-user', annotations: [] },
            {
              role: 'assistant',
              content: { text: answerOf(task) },
              source_id: 'labelmock-model',
              model_parameters: { model: 'labelmock-model', temperature: 0 },
              annotations: [rating],
            },
          ],
          annotations: [accepted],
        },
      ],
      submissions: [
        { ...(task.completed_at !== undefined && { submitted_at: task.completed_at }), contributor_id: 'labeler-1' },
      ],
      annotations: [summary],
    },
  ];
}
