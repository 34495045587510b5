import { ANNOTATION_DETAIL_FIELDS, type Annotation, annotationsIn } from '../../domain/v2/annotations.js';
import type { Message, Thread } from '../../domain/v2/threads.js';
import { deepFreeze } from '../../store/frozen.js';
import type { TaskRecord } from '../../store/task-collection.js';
import type { Tenant } from '../../store/tenant.js';
import { synthesizedAnnotationTask, synthesizeThreads } from '../../synth/threads.js';
import { RevisionCache } from './revision-cache.js';

/** What `opts` switches on in a task's threads (the client's Option enum). */
export const THREAD_OPTIONS = ['annotation_details', 'attachment_details', 'model_parameters', 'submissions'] as const;
export type ThreadOption = (typeof THREAD_OPTIONS)[number];

/** The detail an attachment shows only with attachment_details. */
const ATTACHMENT_DETAIL_FIELDS = [
  'file_size_in_bytes',
  'duration',
  'transcript',
  'transcript_url',
  'transcript_start',
  'transcript_end',
] as const;

const without = <T extends object>(value: T, fields: readonly string[]): T => {
  const copy = { ...value } as Record<string, unknown>;
  for (const field of fields) delete copy[field];
  return copy as T;
};

/** The stored threads (a completion gave them) or the synthesized ones: the whole tree, every option on. */
const fullThreadsOf = (record: TaskRecord): Thread[] => record.internal.threads ?? synthesizeThreads(record.task);

/** `opts` as one text, whatever order they came in: what tells apart the shapes kept per revision. */
export const optionsKey = (opts: readonly ThreadOption[]) =>
  THREAD_OPTIONS.filter((option) => opts.includes(option)).join(',');

/**
 * Threads as shown, per task revision and `opts` (synthesizing and filtering a chat task's threads cost a delivery
 * page of 100 tasks most of its time), beside the stored threads a completion keeps with the revision it makes.
 */
const shownThreads = new RevisionCache<Thread[]>();

/** A completed task's threads as v2 shows them: the optional detail only where `opts` asks for it. */
export function threadsOf(record: TaskRecord, opts: readonly ThreadOption[]): Thread[] {
  return shownThreads.get(record.task, [record.internal.threads], optionsKey(opts), () =>
    deepFreeze(filteredThreads(record, opts)),
  );
}

function filteredThreads(record: TaskRecord, opts: readonly ThreadOption[]): Thread[] {
  const on = new Set(opts);
  const annotation = (a: Annotation): Annotation =>
    on.has('annotation_details') ? a : without(a, ANNOTATION_DETAIL_FIELDS);
  const annotations = (list: Annotation[]) => list.map(annotation);
  const message = (m: Message): Message => {
    const { attachments, chunks } = m.content;
    const content = {
      ...m.content,
      ...(attachments && {
        attachments: on.has('attachment_details')
          ? attachments
          : attachments.map((file) => without(file, ATTACHMENT_DETAIL_FIELDS)),
      }),
      ...(chunks && { chunks: chunks.map((chunk) => ({ ...chunk, annotations: annotations(chunk.annotations) })) }),
    };
    const shown = on.has('model_parameters') ? m : without(m, ['model_parameters']);
    return { ...shown, content, annotations: annotations(m.annotations) };
  };
  return fullThreadsOf(record).map((thread) => ({
    ...(on.has('submissions') ? thread : without(thread, ['submissions'])),
    turns: thread.turns.map((turn) => ({
      ...turn,
      messages: turn.messages.map(message),
      annotations: annotations(turn.annotations),
    })),
    annotations: annotations(thread.annotations),
  }));
}

/** An annotation of a completed task's threads, by id: stored threads by index, synthesized ones by their id. */
export function findAnnotation(tenant: Tenant, annotationId: string): Annotation | undefined {
  const synthesizedFor = synthesizedAnnotationTask(annotationId);
  const record =
    tenant.tasks.annotationOwner(annotationId) ??
    (synthesizedFor === undefined ? undefined : tenant.tasks.get(synthesizedFor));
  if (record?.task.status !== 'completed') return undefined;
  for (const annotation of annotationsIn(fullThreadsOf(record))) {
    if (annotation.id === annotationId) return annotation;
  }
  return undefined;
}
