import { z } from 'zod';
import { synthesizeOtherResponse } from '../../../synth/other-types.js';
import { duplicateLabelNames, labelList } from '../../common/labels.js';
import { AttachmentUrlSchema } from '../../common/values.js';
import { CommonCreateShape } from '../common-params.js';
import { defineTaskType } from '../define-task-type.js';
import type { GeometryKind } from '../geometries.js';
import {
  checkOtherResponse,
  type OtherResponseKind,
  otherParamsSchema,
  otherResponseSchema,
} from '../other-responses.js';
import { reportAll, reportInto } from '../report.js';
import type { TaskTypeDefinition } from '../type-definition.js';

/**
 * The task types the official clients name but the interface does not specify. Each accepts the
 * parameters real-service-notes lists as required (a 400 names a missing one), validates the
 * common parameters, and stores every other parameter as given. One table, one factory.
 */

const NonEmptyString = z.string().refine((s) => s.trim() !== '', 'must be a non-empty string');
const UniqueLabelsSchema = labelList({ min: 1 }).superRefine((labels, ctx) => {
  const dupes = duplicateLabelNames(labels);
  if (dupes.length > 0)
    ctx.addIssue({ code: 'custom', message: `must not repeat labels (repeated: ${dupes.join(', ')})` });
});
const FieldsByKeySchema = z
  .record(z.unknown())
  .refine(
    (fields) => Object.keys(fields).length > 0,
    'must name at least one field (an object of field name to description)',
  );

const AttachmentListSchema = z.array(z.union([NonEmptyString, z.array(NonEmptyString).min(1)])).min(1);

const Required = {
  /** Image-based types take a URL; categorization, transcription and data collection also take text. */
  imageAttachment: { attachment: AttachmentUrlSchema },
  anyAttachment: { attachment: NonEmptyString },
  objects: {
    attachment: AttachmentUrlSchema,
    objects_to_annotate: UniqueLabelsSchema,
    with_labels: z.boolean().optional(),
  },
  /** The legacy comparison takes the items to compare, flat or grouped (the official clients send both). */
  comparison: {
    attachments: AttachmentListSchema,
    choices: UniqueLabelsSchema.optional(),
    fields: FieldsByKeySchema.optional(),
  },
  /** The legacy audio transcription: a URL of the audio; attachment_type, when given, is audio. */
  audio: {
    attachment: AttachmentUrlSchema,
    attachment_type: z.literal('audio').optional(),
    verbatim: z.boolean().optional(),
    skip_human_transcription: z.boolean().optional(),
  },
};

interface OtherTypeSpec {
  type: string;
  /** Params the real service wrote into recorded tasks the creation left out (scaleapi/scaleapi-ruby@e6354d9). */
  defaults?: Record<string, unknown>;
  defaultInstruction?: string;
  schemaName: string;
  what: string;
  required: z.ZodRawShape;
  /** Parameters of which at least one must be present (a comparison asks by choices, fields or both). */
  anyOf?: readonly [string, ...string[]];
  response: OtherResponseKind;
  /** Legacy annotation types: the geometry their responses carry. */
  geometry?: GeometryKind;
  /** A chat type (TaskTypeDefinition.chat). */
  chat?: true;
}

const legacy = (
  type: string,
  schemaName: string,
  geometry: GeometryKind,
  what: string,
  defaults: Record<string, unknown> = {},
): OtherTypeSpec => ({
  type,
  schemaName,
  what,
  geometry,
  defaults: { with_labels: true, ...defaults },
  required: Required.objects,
  response: 'annotations',
});
const unspecified = (type: string, schemaName: string, what: string): OtherTypeSpec => ({
  type,
  schemaName,
  what,
  required: {},
  response: 'placeholder',
});

export const OTHER_TYPE_TABLE: readonly OtherTypeSpec[] = [
  {
    type: 'categorization',
    schemaName: 'Categorization',
    what: 'a categorization',
    required: {
      ...Required.anyAttachment,
      categories: UniqueLabelsSchema,
      allow_multiple: z.boolean().optional(),
      category_ids: z.record(z.string()).optional(),
    },
    defaults: { allow_multiple: false },
    response: 'categorization',
  },
  legacy('annotation', 'Annotation', 'box', 'a legacy box annotation', { min_width: 0, min_height: 0 }),
  legacy('polygonannotation', 'PolygonAnnotation', 'polygon', 'a legacy polygon annotation'),
  legacy('lineannotation', 'LineAnnotation', 'line', 'a legacy line annotation', { splines: false }),
  legacy('pointannotation', 'PointAnnotation', 'point', 'a legacy point annotation'),
  legacy('cuboidannotation', 'CuboidAnnotation', 'cuboid', 'a legacy cuboid annotation', {
    min_annotations: 0,
    max_annotations: 0,
  }),
  {
    type: 'documenttranscription',
    schemaName: 'DocumentTranscription',
    what: 'a document transcription',
    required: { ...Required.imageAttachment, features: z.array(z.record(z.unknown())).min(1) },
    response: 'placeholder',
  },
  {
    type: 'transcription',
    schemaName: 'Transcription',
    what: 'a transcription',
    required: { ...Required.anyAttachment, fields: FieldsByKeySchema },
    response: 'fields',
  },
  {
    type: 'datacollection',
    schemaName: 'DataCollection',
    what: 'a data collection',
    required: { ...Required.anyAttachment, fields: FieldsByKeySchema },
    response: 'fields',
  },
  {
    type: 'comparison',
    schemaName: 'Comparison',
    what: 'a comparison',
    required: Required.comparison,
    anyOf: ['choices', 'fields'],
    response: 'comparison',
  },
  {
    type: 'audiotranscription',
    schemaName: 'AudioTranscription',
    what: 'an audio transcription',
    required: Required.audio,
    defaults: { attachment_type: 'audio', verbatim: false, skip_human_transcription: false },
    defaultInstruction: 'Please transcribe the attached audio file.',
    response: 'transcript',
  },
  unspecified('documentmodel', 'DocumentModel', 'a document model'),
  unspecified('laneannotation', 'LaneAnnotation', 'a lane annotation'),
  unspecified('videoboxannotation', 'VideoBoxAnnotation', 'a video box annotation'),
  unspecified('videocuboidannotation', 'VideoCuboidAnnotation', 'a video cuboid annotation'),
  unspecified('sensorfusion', 'SensorFusion', 'a sensor fusion'),
  { ...unspecified('chat', 'Chat', 'a chat'), chat: true },
  { ...unspecified('chatexperimental', 'ChatExperimental', 'an experimental chat'), chat: true },
  { ...unspecified('chatlite', 'ChatLite', 'a lite chat'), chat: true },
  { ...unspecified('multichat', 'MultiChat', 'a multi-chat'), chat: true },
  unspecified('multistage', 'MultiStage', 'a multi-stage'),
];

function defineOtherType(spec: OtherTypeSpec): TaskTypeDefinition {
  return defineTaskType({
    type: spec.type,
    summary:
      `Create ${spec.what} task (parameters are not specified: ` +
      `the known required ones are checked, the rest stored as given)`,
    // Passthrough: unknown parameters are this type's own, which the interface does not list.
    createSchema: requireAnyOf(z.object({ ...CommonCreateShape, ...spec.required }).passthrough(), spec.anyOf),
    params: otherParamsSchema(spec.response),
    response: otherResponseSchema(spec.response),
    schemaName: spec.schemaName,
    ...(spec.defaults && { paramDefaults: spec.defaults }),
    ...(spec.defaultInstruction !== undefined && { defaultInstruction: spec.defaultInstruction }),
    ...(spec.chat && { chat: true }),
    checkResponse: (params, response, report) => reportAll(report, checkOtherResponse(spec.response, params, response)),
    synthesize: (params, rng) => synthesizeOtherResponse(spec.response, params, rng, spec.geometry),
  });
}

function requireAnyOf(schema: z.AnyZodObject, keys: OtherTypeSpec['anyOf']): z.ZodTypeAny {
  if (!keys) return schema;
  const [first, ...others] = keys;
  return schema.superRefine((body, ctx) => {
    if (keys.some((key) => body[key] !== undefined)) return;
    reportInto(ctx)([first], `is required (or ${others.map((k) => `"${k}"`).join(', ')})`);
  });
}

export const otherTaskTypes: TaskTypeDefinition[] = OTHER_TYPE_TABLE.map(defineOtherType);
