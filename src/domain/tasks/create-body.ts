import { type ZodObject, type ZodRawShape, z } from 'zod';
import { CommonCreateShape } from './common-params.js';
import { type Report, reportInto } from './report.js';

type BodyShape<F extends ZodRawShape, C extends ZodRawShape> = z.objectUtil.extendShape<
  z.objectUtil.extendShape<typeof CommonCreateShape, C>,
  F
>;

/** A valid creation body: the common parameters (as the type narrows them) and the type's own. */
export type CreateBody<F extends ZodRawShape, C extends ZodRawShape> = z.output<ZodObject<BodyShape<F, C>, 'strict'>>;

/**
 * The creation schema of a type: the common parameters, narrowed by `common` (NER requires an
 * instruction), then the type's own `params`, no other key; `rules` are the cross-field rules, run
 * once every field is valid on its own.
 */
export function createBodySchema<F extends ZodRawShape, C extends ZodRawShape>(
  params: ZodObject<F>,
  common: C,
  rules?: (body: CreateBody<F, C>, report: Report) => void,
) {
  return z
    .object(CommonCreateShape)
    .extend(common)
    .extend(params.shape)
    .strict()
    .superRefine((body, ctx) => rules?.(body, reportInto(ctx)));
}
