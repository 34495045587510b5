import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { synthesizeTopDown } from '../../../synth/lidar-topdown.js';
import { leafLabels } from '../../common/labels.js';
import { isFullUrl } from '../../common/values.js';
import { checkResponseAnnotationsFit } from '../annotation-fit.js';
import { AnnotationAttributesSchema } from '../attributes.js';
import { BaseAnnotationPermissionShape } from '../common-params.js';
import { createBodySchema } from '../create-body.js';
import { defineTaskType } from '../define-task-type.js';
import { PointGeometrySchema, PolygonGeometrySchema } from '../geometries.js';
import { PointAnnotationSchema, PolygonAnnotationSchema } from '../image-annotations.js';
import { LidarAttachmentsSchema, NameListSchema, optionalPriorLidarTask } from '../lidar-common.js';
import { reportAll } from '../report.js';
import { checkGeometryDependents } from './imageannotation.js';

const OTHER_KINDS = ['box', 'cuboid', 'ellipse'];

/** The Geometries object limited to polygon, line and point; the other kinds get a message of their own. */
const TopDownGeometriesSchema = z.preprocess(
  (value, ctx) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
    const kept: Record<string, unknown> = { ...value };
    for (const kind of OTHER_KINDS.filter((k) => k in kept)) {
      ctx.addIssue({
        code: 'custom',
        path: [kind],
        message: 'is not available in a top-down view (only polygon, line and point)',
      });
      delete kept[kind];
    }
    return kept;
  },
  z
    .object({
      polygon: PolygonGeometrySchema.optional(),
      line: PolygonGeometrySchema.optional(),
      point: PointGeometrySchema.optional(),
    })
    .strict()
    .refine(
      (g) => Object.values(g).some((v) => v !== undefined),
      'must name at least one geometry (polygon, line or point)',
    ),
);

/** Aerial imagery: png or jpg. A URL without a file extension (an uploaded file, say) is taken as is. */
function isAerialImageUrl(value: string): boolean {
  if (!isFullUrl(value)) return false;
  const url = new URL(value);
  if (url.protocol === 'data:') return /^data:image\/(png|jpe?g)[;,]/i.test(value);
  const ext = /\.([a-z0-9]+)$/i.exec(url.pathname)?.[1]?.toLowerCase();
  return ext === undefined || ['png', 'jpg', 'jpeg'].includes(ext);
}

const AerialImageUrlSchema = extendApi(
  z
    .string()
    .refine(isAerialImageUrl, 'must be an absolute URL of a png or jpg image (e.g. https://example.com/aerial.png)'),
  { format: 'uri', example: 'https://example.com/aerial.png' },
);

/** Top-down annotations: polygons, lines (their own type, or polygon as image responses show them) and points. */
const TopDownAnnotationSchema = z.discriminatedUnion('type', [PolygonAnnotationSchema, PointAnnotationSchema]);
const optionalUuid = { uuid: z.string().min(1).optional() };
const TopDownBaseAnnotationsSchema = z
  .object({
    annotations: z.array(
      z.discriminatedUnion('type', [
        PolygonAnnotationSchema.extend(optionalUuid),
        PointAnnotationSchema.extend(optionalUuid),
      ]),
    ),
  })
  .strict();

const LidarTopDownResponseSchema = z.object({ annotations: z.array(TopDownAnnotationSchema) }).strict();

/** What a lidar top-down task's `params` hold (project and batch, required here, stay on the task). */
const LidarTopDownParamsSchema = z.object({
  attachment: z.array(AerialImageUrlSchema).min(1).optional(),
  attachments: LidarAttachmentsSchema.optional(),
  region_of_interest_2d: z.record(z.unknown()).optional(),
  region_of_interest_3d: z.record(z.unknown()).optional(),
  geometries: TopDownGeometriesSchema,
  directed_line: NameListSchema.optional(),
  annotation_attributes: AnnotationAttributesSchema.optional(),
  links: z.record(z.unknown()).optional(),
  base_annotations: TopDownBaseAnnotationsSchema.optional(),
  ...BaseAnnotationPermissionShape,
  groups: NameListSchema.optional(),
  rules: z.record(z.unknown()).optional(),
  disable_cuboid_projection: z.boolean().optional(),
  lidar_task: z.string().min(1).optional(),
  deviceHeight: z.number().int().min(0).optional(),
  // May be empty: the most recently submitted taxonomy is then used.
  taxonomy_srn: z.string().optional(),
});

/** Required for this type (the interface lists both as required; batch implies the project). */
const RequiredProjectShape = { project: z.string().min(1), batch: z.string().min(1) };

const LidarTopDownCreateSchema = createBodySchema(LidarTopDownParamsSchema, RequiredProjectShape, (body, report) => {
  if ((body.attachment === undefined) === (body.attachments === undefined)) {
    const message = body.attachment
      ? 'cannot be combined with attachments: give exactly one (aerial imagery or lidar frames)'
      : 'or attachments is required: give exactly one (aerial imagery or lidar frames)';
    report(['attachment'], message);
  }
  if (body.attachments && !body.region_of_interest_3d)
    report(['region_of_interest_3d'], 'is required for a lidar task (attachments given)');
  const lines = leafLabels(body.geometries?.line?.objects_to_annotate);
  body.directed_line?.forEach((name, index) => {
    if (!lines.includes(name)) {
      const known = lines.length > 0 ? `line labels: ${lines.join(', ')}` : 'the task has no line geometry';
      report(['directed_line', index], `names "${name}", which is not a line label (${known})`);
    }
  });
  // A geometries value that failed its own schema has its issue already.
  if (body.geometries) checkGeometryDependents(body, report);
});

export const lidartopdown = defineTaskType({
  type: 'lidartopdown',
  summary: 'Create a lidar top-down task (polygons, lines and points over aerial imagery or projected lidar frames)',
  createSchema: LidarTopDownCreateSchema,
  params: LidarTopDownParamsSchema,
  response: LidarTopDownResponseSchema,
  schemaName: 'LidarTopDown',
  checkCreate: (params, context, report) => reportAll(report, optionalPriorLidarTask(params, context)),
  checkResponse: (params, response, report) => reportAll(report, checkResponseAnnotationsFit(response, params)),
  synthesize: (params, rng) => synthesizeTopDown(params, rng),
});
