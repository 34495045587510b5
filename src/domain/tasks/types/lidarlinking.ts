import { z } from 'zod';
import { synthesizeLidarLinking } from '../../../synth/lidar-linking.js';
import { allLabelNames, type LabelDescription, LabelListSchema } from '../../common/labels.js';
import { AttachmentUrlSchema } from '../../common/values.js';
import { checkAnnotationsFit, checkAttributeValues, type FitIssue } from '../annotation-fit.js';
import { AnnotationAttributesSchema, checkAttributeConditions } from '../attributes.js';
import { CommonCreateShape, PaddingShape } from '../common-params.js';
import { GEOMETRY_KINDS, GeometriesSchema } from '../geometries.js';
import {
  BoxAnnotationSchema,
  CuboidAnnotationSchema,
  PointAnnotationSchema,
  PolygonAnnotationSchema,
} from '../image-annotations.js';
import { findCompletedTask, LabelingSampleRateSchema, NameListSchema } from '../lidar-common.js';
import type { TaskTypeDefinition } from '../type-definition.js';

export { linkingFrames } from '../lidar-common.js';

export const LINKING_ANNOTATION_TYPES = [
  'imageannotation',
  'annotation',
  'cuboidannotation',
  'polygonannotation',
] as const;
/** The lidar task types whose cuboids a linking task projects. */
export const LINKABLE_TYPES = ['lidarannotation', 'lidarsegmentation'];

const CameraIdSchema = z.number().int().min(0);

/** Cameras per event; the interface does not show the object, so this shape is the mock's choice. */
export const EventCamerasSchema = z
  .object({ event: z.string().min(1), camera_ids: z.array(CameraIdSchema).min(1) })
  .strict();

/** Read-only shapes per camera: a file holding one layer array per frame. */
export const LinkingLayerSchema = z.object({ url: AttachmentUrlSchema, camera_id: CameraIdSchema }).strict();

/** The creation body's fields; the cross-field rules follow. */
const LidarLinkingFieldsSchema = z
  .object({
    ...CommonCreateShape,
    instruction: z.string().refine((s) => s.trim() !== '', 'must not be empty'),
    lidar_task: z.string().min(1),
    annotation_type: z.enum(LINKING_ANNOTATION_TYPES),
    annotation_attributes: AnnotationAttributesSchema.optional(),
    camera_ids: z.array(CameraIdSchema).min(1).optional(),
    events_to_annotate: NameListSchema.optional(),
    event_camera_ids: z.array(EventCamerasSchema).optional(),
    can_add_annotations: z.boolean().optional(),
    can_edit_annotations: z.boolean().optional(),
    can_edit_annotation_positions: z.boolean().optional(),
    can_delete_annotations: z.boolean().optional(),
    labeling_sample_rate: LabelingSampleRateSchema.optional(),
    additional_labels: LabelListSchema.optional(),
    skip_labels: NameListSchema.optional(),
    geometries: GeometriesSchema.optional(),
    default_geometry: z.enum(['box', 'cuboid', 'polygon']).optional(),
    copy_all_lidar_task_attributes: z.boolean().optional(),
    ...PaddingShape,
    layers: z.array(LinkingLayerSchema).optional(),
  })
  .strict();
type LinkingBody = z.infer<typeof LidarLinkingFieldsSchema>;

function checkAnnotationKind(body: LinkingBody, ctx: z.RefinementCtx): void {
  const add = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (body.annotation_type === 'imageannotation') {
    if (!body.geometries) add('geometries', 'is required when annotation_type is imageannotation');
    if (!body.default_geometry) add('default_geometry', 'is required when annotation_type is imageannotation');
    if (body.additional_labels)
      add('additional_labels', 'is not allowed when annotation_type is imageannotation (use geometries)');
  }
  if (body.default_geometry && body.geometries && !body.geometries[body.default_geometry]) {
    add('default_geometry', `is "${body.default_geometry}", a geometry that geometries does not offer`);
  }
}

function checkPermissions(body: LinkingBody, ctx: z.RefinementCtx): void {
  if (body.can_edit_annotations !== false) return;
  for (const key of ['can_edit_annotation_positions', 'can_delete_annotations'] as const) {
    if (body[key] === true)
      ctx.addIssue({ code: 'custom', path: [key], message: 'requires can_edit_annotations true (it is false)' });
  }
}

function checkEventCameras(body: LinkingBody, ctx: z.RefinementCtx): void {
  // Sets, not includes per entry: long lists must cost their length, not their product.
  const events = new Set(body.events_to_annotate ?? []);
  const cameras = new Set(body.camera_ids ?? []);
  body.event_camera_ids?.forEach((entry, index) => {
    if (!events.has(entry.event)) {
      const given = body.events_to_annotate ? body.events_to_annotate.join(', ') : 'not given';
      ctx.addIssue({
        code: 'custom',
        path: ['event_camera_ids', index, 'event'],
        message: `names "${entry.event}", which must be in events_to_annotate (${given})`,
      });
    }
    const outside = body.camera_ids ? entry.camera_ids.filter((id) => !cameras.has(id)) : [];
    if (outside.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['event_camera_ids', index, 'camera_ids'],
        message: `names camera(s) ${outside.join(', ')}, which must be in camera_ids (${body.camera_ids?.join(', ')})`,
      });
    }
  });
}

export const LidarLinkingCreateSchema = LidarLinkingFieldsSchema.superRefine((body, ctx) => {
  checkAnnotationKind(body, ctx);
  checkPermissions(body, ctx);
  checkEventCameras(body, ctx);
});
export type LidarLinkingCreate = z.infer<typeof LidarLinkingCreateSchema>;

const frameCamera = { frame_index: z.number().int().min(1), camera_id: CameraIdSchema };

/** A 2D projection of one cuboid of the lidar task, on one camera image of one frame; uuid is the cuboid's. */
export const LinkedAnnotationSchema = z.discriminatedUnion('type', [
  BoxAnnotationSchema.extend(frameCamera),
  PolygonAnnotationSchema.extend(frameCamera),
  PointAnnotationSchema.extend(frameCamera),
  CuboidAnnotationSchema.extend(frameCamera),
]);
export type LinkedAnnotation = z.infer<typeof LinkedAnnotationSchema>;

export const LidarLinkingResponseSchema = z.object({ annotations: z.array(LinkedAnnotationSchema) }).strict();

/** The one geometry each legacy annotation_type draws. */
const KIND_OF_TYPE: Record<string, string> = {
  annotation: 'box',
  cuboidannotation: 'cuboid',
  polygonannotation: 'polygon',
};

/** With copy_all_lidar_task_attributes the lidar task's attributes come along too: only this task's own are checked. */
function ownAttributes(params: LidarLinkingCreate, attributes: Record<string, unknown>): Record<string, unknown> {
  if (!params.copy_all_lidar_task_attributes) return attributes;
  return Object.fromEntries(
    Object.entries(attributes).filter(([name]) => params.annotation_attributes?.[name] !== undefined),
  );
}

function checkLegacyKind(
  params: LidarLinkingCreate,
  annotation: LinkedAnnotation,
  path: (string | number)[],
): FitIssue[] {
  const kind = KIND_OF_TYPE[params.annotation_type];
  if (annotation.type === kind)
    return checkAttributeValues(ownAttributes(params, annotation.attributes), params.annotation_attributes, [
      ...path,
      'attributes',
    ]);
  return [
    {
      path: [...path, 'type'],
      message: `is "${annotation.type}", but annotation_type ${params.annotation_type} draws ${kind} shapes`,
    },
  ];
}

/** Projections fit the annotation kind, carry no skipped label, use the task's cameras, and appear once per frame and camera. */
export function checkLinkingResponse(params: LidarLinkingCreate, annotations: LinkedAnnotation[]): FitIssue[] {
  const base = ['response', 'annotations'];
  const issues: FitIssue[] =
    params.annotation_type === 'imageannotation' && params.geometries
      ? checkAnnotationsFit(
          annotations.map((a) => ({ ...a, attributes: ownAttributes(params, a.attributes) })),
          params.geometries,
          params.annotation_attributes,
          base,
        )
      : annotations.flatMap((a, index) => checkLegacyKind(params, a, [...base, index]));
  const seen = new Set<string>();
  annotations.forEach((annotation, index) => {
    const path = [...base, index];
    if (params.skip_labels?.includes(annotation.label))
      issues.push({
        path: [...path, 'label'],
        message: `is "${annotation.label}", a label this task skips (skip_labels)`,
      });
    if (params.camera_ids && !params.camera_ids.includes(annotation.camera_id)) {
      issues.push({
        path: [...path, 'camera_id'],
        message: `is ${annotation.camera_id}, not one of the task's camera_ids (${params.camera_ids.join(', ')})`,
      });
    }
    const key = `${annotation.frame_index}/${annotation.camera_id}/${annotation.uuid}`;
    if (seen.has(key))
      issues.push({
        path: [...path, 'uuid'],
        message: `repeats uuid "${annotation.uuid}" on frame ${annotation.frame_index}, camera ${annotation.camera_id}`,
      });
    seen.add(key);
  });
  return issues;
}

/** Rules that need the lidar task: skip_labels among its labels, attribute conditions among all labels. */
function checkAgainstLidarTask(params: LidarLinkingCreate, labels: LabelDescription[]): FitIssue[] {
  const issues: FitIssue[] = [];
  const original = allLabelNames(labels);
  params.skip_labels?.forEach((name, index) => {
    if (!original.includes(name)) {
      issues.push({
        path: ['skip_labels', index],
        message: `names "${name}", which is not a label of lidar task ${params.lidar_task} (${original.join(', ')})`,
      });
    }
  });
  const geometryLabels = GEOMETRY_KINDS.flatMap((kind) =>
    allLabelNames(params.geometries?.[kind]?.objects_to_annotate),
  );
  const known = new Set([...original, ...allLabelNames(params.additional_labels), ...geometryLabels]);
  const collect = {
    addIssue: (issue: FitIssue) => issues.push({ path: issue.path, message: issue.message }),
  } as unknown as z.RefinementCtx;
  checkAttributeConditions(params.annotation_attributes, known, collect);
  return issues;
}

export const lidarlinking: TaskTypeDefinition = {
  type: 'lidarlinking',
  summary: 'Create a lidar linking task (2D projections of the cuboids of a completed lidar task, per camera)',
  createSchema: LidarLinkingCreateSchema,
  responseSchema: LidarLinkingResponseSchema,
  schemaName: 'LidarLinking',
  checkCreate: (params, context) => {
    const linking = params as LidarLinkingCreate;
    const { task, issues } = findCompletedTask(linking.lidar_task, LINKABLE_TYPES, context);
    if (!task) return issues;
    return checkAgainstLidarTask(linking, (task.params as { labels?: LabelDescription[] }).labels ?? []);
  },
  checkResponse: (task, response) =>
    checkLinkingResponse(task.params as LidarLinkingCreate, response.annotations as LinkedAnnotation[]),
  synthesize: (task, rng) => synthesizeLidarLinking(task.params as LidarLinkingCreate, rng),
};
