import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';

/**
 * v2 annotations: one object per answer to a question, on a thread, turn, message or chunk. Twelve
 * kinds, told apart by `type` (what the official Python client's `Annotation` model dispatches on);
 * each carries the common fields and a `value` of its kind.
 */

const text = z.string();

/** A file an annotation or message refers to. */
export const BasicFileSchema = z.object({
  content: text.optional(),
  mime_type: text.optional(),
  scale_url: text.optional(),
  url: text.optional(),
  name: text.optional(),
});

const ContentAndUrlSchema = z.object({ content: text.optional(), url: text.optional(), scale_url: text.optional() });

const WorkspaceContainerValueSchema = z.object({
  workspace_id: text.optional(),
  workspace_config: z
    .object({
      workspace_id: text,
      workspace_url: text,
      workspace_token: text,
      expires_at: text,
      inactivity_freeze_time: z.number().int(),
      force_enable_workspace_access: z.boolean().optional(),
      workspace_image_version: z.number().int().optional(),
    })
    .optional(),
  last_code_run_event: z.record(z.unknown()).optional(),
  output_files: z
    .array(
      z.object({
        file_name: text.optional(),
        scale_url: text,
        url: text.optional(),
        file_language: text.optional(),
        file_content: text.optional(),
      }),
    )
    .optional(),
  stdout_output: ContentAndUrlSchema.optional(),
  stderr_output: ContentAndUrlSchema.optional(),
  test_stdout_output: ContentAndUrlSchema.optional(),
  test_stderr_output: ContentAndUrlSchema.optional(),
});

/** The fields every kind shares; `annotation_details` (opts) adds title, description and labels. */
const common = {
  id: extendApi(text, { description: 'Unique identifier of the annotation (GET /v2/annotation reads it)' }),
  key: extendApi(text, { description: 'The question the annotation answers' }),
  title: text.optional(),
  description: text.optional(),
  labels: z.array(text).optional(),
  not_applicable: z.boolean().optional(),
  cannot_assess: z.boolean().optional(),
  metadata: z.object({ criteria: z.union([text, z.record(z.unknown())]).optional() }).optional(),
  justification: text.optional(),
};

/** The detail fields `opts=annotation_details` switches on. */
export const ANNOTATION_DETAIL_FIELDS = ['title', 'description', 'labels', 'metadata', 'justification'] as const;

const kind = <T extends string, V extends z.ZodTypeAny, E extends z.ZodRawShape = Record<never, never>>(
  type: T,
  value: V,
  extra?: E,
) => z.object({ ...common, type: z.literal(type), value: value.optional(), ...(extra as E) }).strict();

const score = z.number();

export const AnnotationSchema = z.discriminatedUnion('type', [
  kind('boolean', z.boolean(), { possible_values: z.array(z.boolean()).optional() }),
  kind('integer', z.number().int(), { possible_values: z.array(z.number().int()).optional() }),
  kind('text', text),
  kind('category', text, { possible_values: z.array(text).optional() }),
  kind('category_multiple', z.array(text), { possible_values: z.array(text).optional() }),
  kind('file', z.union([BasicFileSchema, z.array(BasicFileSchema)])),
  kind('labeled_text', z.array(z.object({ label: text.optional(), text: text.optional() }))),
  kind('ranked_choices', z.array(text)),
  kind('ranked_groups', z.array(z.array(text))),
  kind('rubric_criteria', z.object({ weight: score.optional() }).passthrough()),
  kind('rubric_rating', z.object({ score: score.optional(), color: text.optional() }).passthrough()),
  kind('workspace_container', WorkspaceContainerValueSchema),
]);
export type Annotation = z.infer<typeof AnnotationSchema>;

/**
 * Every annotation in threads, at any depth (thread, turn, message, chunk, rubric): the one walk, for the store's
 * annotation index and GET /v2/annotation alike. Stored threads were checked against ThreadsInputSchema.
 */
export function* annotationsIn(value: unknown): Generator<Annotation> {
  if (Array.isArray(value)) for (const item of value) yield* annotationsIn(item);
  else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'annotations' && Array.isArray(inner)) yield* inner as Annotation[];
      yield* annotationsIn(inner);
    }
  }
}
