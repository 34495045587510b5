import { z } from 'zod';

/** Annotation shapes of image (and video) responses, also used by hypothesis and base_annotations. */

const PointXYSchema = z.object({ x: z.number(), y: z.number() }).strict();
export const PointXYZSchema = z.object({ x: z.number(), y: z.number(), z: z.number() }).strict();

const annotationBase = {
  uuid: z.string().min(1),
  label: z.string().min(1),
  attributes: z.record(z.unknown()).default({}),
};

export const BoxAnnotationSchema = z
  .object({
    ...annotationBase,
    type: z.literal('box'),
    left: z.number(),
    top: z.number(),
    width: z.number().nonnegative(),
    height: z.number().nonnegative(),
    rotation: z.number().optional(),
    vertices: z.array(PointXYSchema).length(4).optional(),
  })
  .passthrough();

/**
 * Polygons; lines and ellipses are shown with type polygon (the interface says so), but their own type names are
 * accepted too.
 */
export const PolygonAnnotationSchema = z
  .object({ ...annotationBase, type: z.enum(['polygon', 'line', 'ellipse']), vertices: z.array(PointXYSchema).min(1) })
  .passthrough();

export const PointAnnotationSchema = z
  .object({ ...annotationBase, type: z.literal('point'), x: z.number(), y: z.number() })
  .passthrough();

export const CUBOID_VERTEX_DESCRIPTIONS = [
  'face-topleft',
  'face-bottomleft',
  'face-topright',
  'face-bottomright',
  'side-topcorner',
  'side-bottomcorner',
] as const;
export const CUBOID_EDGE_DESCRIPTIONS = [
  'face-top',
  'face-right',
  'face-bottom',
  'face-left',
  'side-top',
  'side-bottom',
] as const;

const CuboidVertexSchema = z
  .object({ x: z.number(), y: z.number(), type: z.literal('vertex'), description: z.enum(CUBOID_VERTEX_DESCRIPTIONS) })
  .strict();
const CuboidEdgeSchema = z
  .object({
    x1: z.number(),
    y1: z.number(),
    x2: z.number(),
    y2: z.number(),
    type: z.literal('edge'),
    description: z.string().min(1),
  })
  .strict();

export const CuboidAnnotationSchema = z
  .object({
    ...annotationBase,
    type: z.literal('cuboid'),
    vertices: z.array(CuboidVertexSchema).min(1),
    edges: z.array(CuboidEdgeSchema).optional(),
    points_2d: z.array(PointXYSchema).length(8).optional(),
    points_3d: z.array(PointXYZSchema).length(8).optional(),
  })
  .passthrough();

export const ImageAnnotationSchema = z.discriminatedUnion('type', [
  BoxAnnotationSchema,
  PolygonAnnotationSchema,
  PointAnnotationSchema,
  CuboidAnnotationSchema,
]);
export type ImageAnnotation = z.infer<typeof ImageAnnotationSchema>;

/** Prelabels: like annotations, but a uuid is optional (generated when omitted). */
const optionalUuid = { uuid: z.string().min(1).optional() };
const HypothesisAnnotationSchema = z.discriminatedUnion('type', [
  BoxAnnotationSchema.extend(optionalUuid),
  PolygonAnnotationSchema.extend(optionalUuid),
  PointAnnotationSchema.extend(optionalUuid),
  CuboidAnnotationSchema.extend(optionalUuid),
]);

export const ImageHypothesisSchema = z
  .object({ annotations: z.array(HypothesisAnnotationSchema), global_attributes: z.record(z.unknown()).optional() })
  .strict();

export const ImageAnnotationResponseSchema = z
  .object({ annotations: z.array(ImageAnnotationSchema), global_attributes: z.record(z.unknown()).optional() })
  .strict();
export type ImageAnnotationResponse = z.infer<typeof ImageAnnotationResponseSchema>;
