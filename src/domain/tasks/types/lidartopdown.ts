import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { synthesizeTopDown } from '../../../synth/lidar-topdown.js';
import { leafLabels } from '../../common/labels.js';
import { isFullUrl } from '../../common/values.js';
import { checkResponseAnnotationsFit } from '../annotation-fit.js';
import { AnnotationAttributesSchema } from '../attributes.js';
import { BaseAnnotationPermissionShape, CommonCreateShape } from '../common-params.js';
import { type Geometries, LineGeometrySchema, PointGeometrySchema, PolygonGeometrySchema } from '../geometries.js';
import { PointAnnotationSchema, PolygonAnnotationSchema } from '../image-annotations.js';
import { LidarAttachmentsSchema, NameListSchema, optionalPriorLidarTask } from '../lidar-common.js';
import type { TaskTypeDefinition } from '../type-definition.js';
import { checkGeometryDependents } from './imageannotation.js';

const OTHER_KINDS = ['box', 'cuboid', 'ellipse'];

/** The Geometries object limited to polygon, line and point; the other kinds get a message of their own. */
export const TopDownGeometriesSchema = z.preprocess(
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
      line: LineGeometrySchema.optional(),
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
export const TopDownAnnotationSchema = z.discriminatedUnion('type', [PolygonAnnotationSchema, PointAnnotationSchema]);
const optionalUuid = { uuid: z.string().min(1).optional() };
export const TopDownBaseAnnotationsSchema = z
  .object({
    annotations: z.array(
      z.discriminatedUnion('type', [
        PolygonAnnotationSchema.extend(optionalUuid),
        PointAnnotationSchema.extend(optionalUuid),
      ]),
    ),
  })
  .strict();

export const LidarTopDownResponseSchema = z.object({ annotations: z.array(TopDownAnnotationSchema) }).strict();

export const LidarTopDownCreateSchema = z
  .object({
    ...CommonCreateShape,
    // Required for this type (the interface lists both as required; batch implies the project).
    project: z.string().min(1),
    batch: z.string().min(1),
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
  })
  .strict()
  .superRefine((body, ctx) => {
    if ((body.attachment === undefined) === (body.attachments === undefined)) {
      const message = body.attachment
        ? 'cannot be combined with attachments: give exactly one (aerial imagery or lidar frames)'
        : 'or attachments is required: give exactly one (aerial imagery or lidar frames)';
      ctx.addIssue({ code: 'custom', path: ['attachment'], message });
    }
    if (body.attachments && !body.region_of_interest_3d) {
      ctx.addIssue({
        code: 'custom',
        path: ['region_of_interest_3d'],
        message: 'is required for a lidar task (attachments given)',
      });
    }
    const lines = leafLabels(body.geometries?.line?.objects_to_annotate);
    body.directed_line?.forEach((name, index) => {
      if (!lines.includes(name)) {
        const known = lines.length > 0 ? `line labels: ${lines.join(', ')}` : 'the task has no line geometry';
        ctx.addIssue({
          code: 'custom',
          path: ['directed_line', index],
          message: `names "${name}", which is not a line label (${known})`,
        });
      }
    });
    if (body.geometries) checkGeometryDependents(body as typeof body & { geometries: Geometries }, ctx);
  });
export type LidarTopDownCreate = z.infer<typeof LidarTopDownCreateSchema>;

export const lidartopdown: TaskTypeDefinition = {
  type: 'lidartopdown',
  summary: 'Create a lidar top-down task (polygons, lines and points over aerial imagery or projected lidar frames)',
  createSchema: LidarTopDownCreateSchema,
  responseSchema: LidarTopDownResponseSchema,
  schemaName: 'LidarTopDown',
  checkCreate: optionalPriorLidarTask,
  checkResponse: (task, response) => checkResponseAnnotationsFit(response, task.params as LidarTopDownCreate),
  synthesize: (task, rng) => synthesizeTopDown(task.params as LidarTopDownCreate, rng),
};
