import { z } from 'zod';
import { duplicateLabelNames, labelList, leafLabels } from '../common/labels.js';

/** The Geometries object of image, video, lidar top-down and lidar linking tasks. */

export const ObjectsToAnnotateSchema = labelList({ min: 1 }).superRefine((labels, ctx) => {
  const dupes = duplicateLabelNames(labels);
  if (dupes.length > 0)
    ctx.addIssue({ code: 'custom', message: `must not repeat labels (repeated: ${dupes.join(', ')})` });
});

const PixelSizeSchema = z.number().int().min(0);
const VertexCountSchema = z.number().int().min(1);

const BoxGeometrySchema = z
  .object({
    objects_to_annotate: ObjectsToAnnotateSchema,
    min_height: PixelSizeSchema.optional(),
    min_width: PixelSizeSchema.optional(),
    can_rotate: z.boolean().optional(),
    integer_pixels: z.boolean().optional(),
  })
  .strict()
  .superRefine((box, ctx) => {
    if (box.integer_pixels && box.can_rotate) {
      ctx.addIssue({
        code: 'custom',
        path: ['integer_pixels'],
        message: 'cannot be true when can_rotate is true (rotated boxes have fractional coordinates)',
      });
    }
  });

const vertexBounds = <T extends { min_vertices?: number; max_vertices?: number }>(g: T, ctx: z.RefinementCtx) => {
  if (g.min_vertices !== undefined && g.max_vertices !== undefined && g.max_vertices < g.min_vertices) {
    ctx.addIssue({
      code: 'custom',
      path: ['max_vertices'],
      message: `must be at least min_vertices (${g.min_vertices})`,
    });
  }
};

export const PolygonGeometrySchema = z
  .object({
    objects_to_annotate: ObjectsToAnnotateSchema,
    min_vertices: VertexCountSchema.optional(),
    max_vertices: VertexCountSchema.optional(),
  })
  .strict()
  .superRefine(vertexBounds);

export const PointGeometrySchema = z.object({ objects_to_annotate: ObjectsToAnnotateSchema }).strict();
const EllipseGeometrySchema = PointGeometrySchema;

const CameraIntrinsicsSchema = z
  .object({
    fx: z.number(),
    fy: z.number(),
    cx: z.number(),
    cy: z.number(),
    skew: z.number().optional(),
    // Both spellings appear in the interface's samples; either is accepted.
    scalefactor: z.number().positive().optional(),
    scale_factor: z.number().positive().optional(),
  })
  .strict();

const QuaternionSchema = z.object({ w: z.number(), x: z.number(), y: z.number(), z: z.number() }).strict();

const CuboidGeometrySchema = z
  .object({
    objects_to_annotate: ObjectsToAnnotateSchema,
    min_height: PixelSizeSchema.optional(),
    min_width: PixelSizeSchema.optional(),
    camera_intrinsics: CameraIntrinsicsSchema.optional(),
    camera_rotation_quaternion: QuaternionSchema.optional(),
    camera_height: z.number().int().optional(),
  })
  .strict();

export const GeometriesSchema = z
  .object({
    box: BoxGeometrySchema.optional(),
    polygon: PolygonGeometrySchema.optional(),
    // A line takes the polygon's options (vertex bounds).
    line: PolygonGeometrySchema.optional(),
    point: PointGeometrySchema.optional(),
    ellipse: EllipseGeometrySchema.optional(),
    cuboid: CuboidGeometrySchema.optional(),
  })
  .strict()
  .refine(
    (g) => Object.values(g).some((v) => v !== undefined),
    'must name at least one geometry (box, polygon, line, point, ellipse or cuboid)',
  );

export type Geometries = z.infer<typeof GeometriesSchema>;
export type GeometryKind = keyof Geometries;
export const GEOMETRY_KINDS: GeometryKind[] = ['box', 'polygon', 'line', 'point', 'ellipse', 'cuboid'];

/** The geometry kinds a task asked for, in a stable order. */
export function requestedKinds(geometries: Geometries): GeometryKind[] {
  return GEOMETRY_KINDS.filter((kind) => geometries[kind] !== undefined);
}

export function geometryLeafLabels(geometries: Geometries, kind: GeometryKind): string[] {
  return leafLabels(geometries[kind]?.objects_to_annotate);
}

export function hasCameraModel(geometries: Geometries): boolean {
  const cuboid = geometries.cuboid;
  return Boolean(cuboid?.camera_intrinsics && cuboid.camera_rotation_quaternion && cuboid.camera_height !== undefined);
}
