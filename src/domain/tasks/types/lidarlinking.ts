import { z } from 'zod';
import { synthesizeLidarLinking } from '../../../synth/lidar-linking.js';
import { allLabelNames, type LabelDescription, LabelListSchema } from '../../common/labels.js';
import { checkAnnotationsFit, checkAttributeValues } from '../annotation-fit.js';
import { checkAttributeConditions } from '../attributes.js';
import { type CreateBody, createBodySchema } from '../create-body.js';
import { defineTaskType } from '../define-task-type.js';
import { GEOMETRY_KINDS } from '../geometries.js';
import { findCompletedTask } from '../lidar-common.js';
import {
  type LidarLinkingParams,
  LidarLinkingParamsSchema,
  LidarLinkingResponseSchema,
  type LinkedAnnotation,
} from '../lidar-linking-schemas.js';
import { type IssuePath, type Report, reportAll } from '../report.js';

export { linkingFrames } from '../lidar-common.js';

/** The lidar task types whose cuboids a linking task projects. */
const LINKABLE_TYPES = ['lidarannotation', 'lidarsegmentation'];

/** The common instruction, required for this type. */
const RequiredInstruction = { instruction: z.string().refine((s) => s.trim() !== '', 'must not be empty') };
type LinkingBody = CreateBody<typeof LidarLinkingParamsSchema.shape, typeof RequiredInstruction>;

function checkAnnotationKind(body: LinkingBody, report: Report): void {
  const add = (path: string, message: string) => report([path], message);
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

function checkPermissions(body: LinkingBody, report: Report): void {
  if (body.can_edit_annotations !== false) return;
  for (const key of ['can_edit_annotation_positions', 'can_delete_annotations'] as const) {
    if (body[key] === true) report([key], 'requires can_edit_annotations true (it is false)');
  }
}

function checkEventCameras(body: LinkingBody, report: Report): void {
  // Sets, not includes per entry: long lists must cost their length, not their product.
  const events = new Set(body.events_to_annotate ?? []);
  const cameras = new Set(body.camera_ids ?? []);
  body.event_camera_ids?.forEach((entry, index) => {
    if (!events.has(entry.event)) {
      const given = body.events_to_annotate ? body.events_to_annotate.join(', ') : 'not given';
      report(
        ['event_camera_ids', index, 'event'],
        `names "${entry.event}", which must be in events_to_annotate (${given})`,
      );
    }
    const outside = body.camera_ids ? entry.camera_ids.filter((id) => !cameras.has(id)) : [];
    if (outside.length > 0) {
      report(
        ['event_camera_ids', index, 'camera_ids'],
        `names camera(s) ${outside.join(', ')}, which must be in camera_ids (${body.camera_ids?.join(', ')})`,
      );
    }
  });
}

const LidarLinkingCreateSchema = createBodySchema(LidarLinkingParamsSchema, RequiredInstruction, (body, report) => {
  checkAnnotationKind(body, report);
  checkPermissions(body, report);
  checkEventCameras(body, report);
});

/** The one geometry each legacy annotation_type draws. */
const KIND_OF_TYPE: Record<string, string> = {
  annotation: 'box',
  cuboidannotation: 'cuboid',
  polygonannotation: 'polygon',
};

/** With copy_all_lidar_task_attributes the lidar task's attributes come along too: only this task's own are checked. */
function ownAttributes(params: LidarLinkingParams, attributes: Record<string, unknown>): Record<string, unknown> {
  if (!params.copy_all_lidar_task_attributes) return attributes;
  return Object.fromEntries(
    Object.entries(attributes).filter(([name]) => params.annotation_attributes?.[name] !== undefined),
  );
}

function checkLegacyKind(
  params: LidarLinkingParams,
  annotation: LinkedAnnotation,
  path: IssuePath,
  report: Report,
): void {
  const kind = KIND_OF_TYPE[params.annotation_type];
  if (annotation.type !== kind) {
    const rule = `is "${annotation.type}", but annotation_type ${params.annotation_type} draws ${kind} shapes`;
    report([...path, 'type'], rule);
    return;
  }
  const attributes = ownAttributes(params, annotation.attributes);
  reportAll(report, checkAttributeValues(attributes, params.annotation_attributes, [...path, 'attributes']));
}

/**
 * Projections fit the annotation kind, carry no skipped label, use the task's cameras, and appear once per frame and
 * camera.
 */
function checkLinkingResponse(params: LidarLinkingParams, annotations: LinkedAnnotation[], report: Report): void {
  const base = ['response', 'annotations'];
  if (params.annotation_type === 'imageannotation' && params.geometries) {
    const own = annotations.map((a) => ({ ...a, attributes: ownAttributes(params, a.attributes) }));
    reportAll(report, checkAnnotationsFit(own, params.geometries, params.annotation_attributes, base));
  } else {
    annotations.forEach((a, index) => {
      checkLegacyKind(params, a, [...base, index], report);
    });
  }
  const seen = new Set<string>();
  annotations.forEach((annotation, index) => {
    const path = [...base, index];
    if (params.skip_labels?.includes(annotation.label))
      report([...path, 'label'], `is "${annotation.label}", a label this task skips (skip_labels)`);
    if (params.camera_ids && !params.camera_ids.includes(annotation.camera_id)) {
      const cameras = params.camera_ids.join(', ');
      report([...path, 'camera_id'], `is ${annotation.camera_id}, not one of the task's camera_ids (${cameras})`);
    }
    const key = `${annotation.frame_index}/${annotation.camera_id}/${annotation.uuid}`;
    if (seen.has(key)) {
      const where = `frame ${annotation.frame_index}, camera ${annotation.camera_id}`;
      report([...path, 'uuid'], `repeats uuid "${annotation.uuid}" on ${where}`);
    }
    seen.add(key);
  });
}

/** Rules that need the lidar task: skip_labels among its labels, attribute conditions among all labels. */
function checkAgainstLidarTask(params: LidarLinkingParams, labels: LabelDescription[], report: Report): void {
  const original = allLabelNames(labels);
  params.skip_labels?.forEach((name, index) => {
    if (!original.includes(name)) {
      report(
        ['skip_labels', index],
        `names "${name}", which is not a label of lidar task ${params.lidar_task} (${original.join(', ')})`,
      );
    }
  });
  const geometryLabels = GEOMETRY_KINDS.flatMap((kind) =>
    allLabelNames(params.geometries?.[kind]?.objects_to_annotate),
  );
  const known = new Set([...original, ...allLabelNames(params.additional_labels), ...geometryLabels]);
  checkAttributeConditions(params.annotation_attributes, known, report);
}

/** The labels of the lidar task a linking task names (a lidar task's params always hold them). */
const LidarTaskLabelsSchema = z.object({ labels: LabelListSchema.optional() });

export const lidarlinking = defineTaskType({
  type: 'lidarlinking',
  summary: 'Create a lidar linking task (2D projections of the cuboids of a completed lidar task, per camera)',
  createSchema: LidarLinkingCreateSchema,
  params: LidarLinkingParamsSchema,
  response: LidarLinkingResponseSchema,
  schemaName: 'LidarLinking',
  checkCreate: (params, context, report) => {
    const { task, issues } = findCompletedTask(params.lidar_task, LINKABLE_TYPES, context);
    reportAll(report, issues);
    const lidar = task && LidarTaskLabelsSchema.safeParse(task.params);
    if (lidar?.success) checkAgainstLidarTask(params, lidar.data.labels ?? [], report);
  },
  checkResponse: (params, response, report) => checkLinkingResponse(params, response.annotations, report),
  synthesize: (params, rng) => synthesizeLidarLinking(params, rng),
});
