import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { boundedTree } from '../common/bounded.js';
import { MAX_LABELS } from '../common/input-limits.js';
import { lazySchema } from '../common/lazy-schema.js';
import { repeatedValues } from '../common/repeated.js';
import { TimestampSchema } from '../common/values.js';

/** Wire shapes of projects. */

const PipelineSchema = z.enum(['standard_task', 'consensus_task']);

/** One parameter version: version, created_at, instruction and the version's parameters, flat. */
const ParamHistoryEntrySchema = extendApi(
  z
    .object({ version: z.number().int(), created_at: TimestampSchema, instruction: z.string().optional() })
    .passthrough(),
  { description: 'A parameter version; the version parameters sit beside version, created_at and instruction' },
);

const OntologyChoiceSchema: z.ZodType<unknown> = extendApi(
  lazySchema(() =>
    z.object({ choice: z.string().min(1), subchoices: z.array(OntologyEntrySchema).optional() }).passthrough(),
  ),
  {
    type: 'object',
    required: ['choice'],
    properties: { choice: { type: 'string' }, subchoices: { type: 'array', items: {} } },
  },
);
const OntologyEntrySchema: z.ZodType<unknown> = z.union([z.string().min(1), OntologyChoiceSchema], {
  errorMap: () => ({ message: 'must be a choice name or an object {choice, subchoices?}' }),
});

/** At most MAX_LABELS choices and subchoices in all, counted before any is checked. */
const OntologyListSchema = boundedTree(OntologyEntrySchema, {
  treeMax: MAX_LABELS,
  childKey: 'subchoices',
  what: 'choices',
});

const OntologyVersionSchema = z.object({
  name: z.string(),
  ontology: OntologyListSchema,
  created_at: TimestampSchema,
});

export const ProjectSchema = z.object({
  type: z.string(),
  name: z.string(),
  param_history: z.array(ParamHistoryEntrySchema),
  created_at: TimestampSchema,
  rapid: z.boolean(),
  studio: z.boolean(),
  pipeline: PipelineSchema.optional(),
  consensus_attempts: z.number().int().optional(),
  archived: z.boolean(),
  ontologies: z.array(OntologyVersionSchema),
});
export type Project = z.infer<typeof ProjectSchema>;

/** The set-parameters answer: the project with the fields the interface lists for it. */
export const ExtendedProjectSchema = ProjectSchema.extend({
  pipelineName: z.string(),
  numReviews: z.number(),
  numConsensus: z.number(),
  created_by: z.string(),
  created_with: z.string(),
  projectType: z.string(),
  pinned: z.boolean(),
  externalDatasetId: z.string(),
  customGradersUsedOrDismissed: z.boolean(),
  edgeCaseAlertsEnabled: z.boolean(),
  turnOnLongHints: z.boolean(),
  isAudioTranscription: z.boolean(),
  useOldOnboarding: z.boolean(),
  containsAdultContent: z.boolean(),
  useRapidSmartTraining: z.boolean(),
  useTextCollectionTemplate: z.boolean(),
  datasetLinks: z.array(z.object({ datasetId: z.string(), datasetName: z.string() })),
  taxonomy: z.record(z.unknown()).nullable(),
  isSampleProject: z.boolean(),
  modelEvalProject: z.boolean(),
});

export const ProjectListSchema = z.array(ProjectSchema);

export const CreateProjectBodySchema = z
  .object({
    type: z.string().min(1),
    name: z.string().min(1).max(512),
    // The Python client sends params: null, rapid/studio: false and datasetId: null by default.
    rapid: z.boolean().nullish(),
    studio: z.boolean().nullish(),
    params: z.record(z.unknown()).nullish(),
    datasetId: z.string().nullish(),
    pipeline: PipelineSchema.optional(),
    consensus_attempts: z.number().int().min(1).optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.rapid && body.studio)
      ctx.addIssue({ code: 'custom', path: ['studio'], message: 'cannot be true together with rapid' });
    if (body.pipeline !== undefined && !body.studio)
      ctx.addIssue({ code: 'custom', path: ['pipeline'], message: 'is only allowed for studio projects' });
    if (body.consensus_attempts !== undefined && !(body.studio && body.pipeline === 'consensus_task')) {
      ctx.addIssue({
        code: 'custom',
        path: ['consensus_attempts'],
        message: 'is only allowed for studio projects with pipeline consensus_task',
      });
    }
  });

export const SetParamsBodySchema = z
  .object({ patch: z.boolean().optional(), instruction: z.string().optional() })
  .passthrough();

/** Every choice and subchoice name, depth first; iterative, so no tree can exhaust the stack. */
function ontologyNames(entries: unknown[]): string[] {
  const names: string[] = [];
  const pending: unknown[] = [...entries].reverse();
  while (pending.length > 0) {
    const entry = pending.pop();
    if (typeof entry === 'string') {
      names.push(entry);
      continue;
    }
    if (entry === null || typeof entry !== 'object') continue;
    const choice = entry as { choice: string; subchoices?: unknown[] };
    names.push(choice.choice);
    for (let i = (choice.subchoices ?? []).length - 1; i >= 0; i -= 1) pending.push(choice.subchoices?.[i]);
  }
  return names;
}

export const SetOntologyBodySchema = z
  .object({ name: z.string().min(1), ontology: OntologyListSchema })
  .strict()
  .superRefine((body, ctx) => {
    const repeated = repeatedValues(ontologyNames(body.ontology));
    if (repeated.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['ontology'],
        message: `must not repeat choices or subchoices (repeated: ${[...new Set(repeated)].join(', ')})`,
      });
    }
  });

export const PipelineConfigBodySchema = z
  .object({
    name: z.string().min(1).optional(),
    pipeline: PipelineSchema,
    consensus_attempts: z.number().int().min(1).optional(),
  })
  .strict();

export const ProjectNameParamsSchema = z.object({ name: z.string() });
