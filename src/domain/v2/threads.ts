import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { AnnotationSchema, BasicFileSchema } from './annotations.js';

/** A completed v2 task's work: threads of turns of messages, each level with its annotations. */

const text = z.string();
const annotations = z.array(AnnotationSchema);

/** An attachment: a basic, image or audio file (the client tries each shape). */
const DetailedFileSchema = BasicFileSchema.extend({
  file_size_in_bytes: z.number().int().optional(),
  duration: z.number().optional(),
  transcript: text.optional(),
  transcript_url: text.optional(),
  transcript_start: z.number().optional(),
  transcript_end: z.number().optional(),
});

const MessageContentSchema = z
  .object({
    text: text.optional(),
    reference_texts: z
      .array(z.object({ content: text.optional(), category: text.optional(), url: text.optional() }))
      .optional(),
    attachments: z.array(DetailedFileSchema).optional(),
    chunks: z.array(z.object({ type: z.literal('text'), text, annotations }).strict()).optional(),
    reasoning: z.array(z.object({ content: text.optional() })).optional(),
  })
  .strict();

const ModelParametersSchema = z
  .object({
    model: text.optional(),
    temperature: z.number().optional(),
    max_completion_tokens: z.number().int().optional(),
    top_p: z.number().optional(),
    top_k: z.number().int().optional(),
  })
  .strict();

const CriterionEvaluationSchema = z.object({
  criterion_definition_id: text.optional(),
  score: z.number().optional(),
  annotations: annotations.optional(),
});

const MessageSchema = z
  .object({
    role: z.enum(['system', 'user', 'assistant', 'function']),
    content: MessageContentSchema,
    source_id: extendApi(text, { description: 'Who wrote the message (a model or a contributor)' }),
    model_parameters: ModelParametersSchema.optional(),
    annotations,
    rubric_evaluations: z
      .array(
        z.object({
          criteria_evaluations: z.array(CriterionEvaluationSchema).optional(),
          annotations: annotations.optional(),
          total_score: z.number().optional(),
          percentage: z.number().optional(),
        }),
      )
      .optional(),
  })
  .strict();

const RubricSchema = z.object({
  criteria_definitions: z.array(
    z.object({ id: text, criterion: text, weight: z.number().optional(), annotations }).strict(),
  ),
  max_total_score: z.number().int().optional(),
});

const TurnSchema = z
  .object({ id: text, messages: z.array(MessageSchema), annotations, rubrics: z.array(RubricSchema).optional() })
  .strict();

export const ThreadSchema = z
  .object({
    id: text,
    turns: z.array(TurnSchema),
    submissions: z
      .array(z.object({ submitted_at: text.optional(), contributor_id: text.optional() }).strict())
      .optional(),
    annotations,
  })
  .strict();
export type Thread = z.infer<typeof ThreadSchema>;
export type Message = z.infer<typeof MessageSchema>;

/** Thread lists as the control plane takes them: bounded, so one completion cannot hold the tenant's memory. */
export const ThreadsInputSchema = z.array(ThreadSchema).max(100);
