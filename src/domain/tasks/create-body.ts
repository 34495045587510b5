import { type ZodObject, type ZodRawShape, type ZodTypeAny, z } from 'zod';
import { CommonCreateShape } from './common-params.js';
import { type Report, reportInto } from './report.js';

type BodyShape<F extends ZodRawShape, C extends ZodRawShape> = z.objectUtil.extendShape<
  z.objectUtil.extendShape<typeof CommonCreateShape, C>,
  F
>;

/** A valid creation body: the common parameters (as the type narrows them) and the type's own. */
export type CreateBody<F extends ZodRawShape, C extends ZodRawShape> = z.output<ZodObject<BodyShape<F, C>, 'strict'>>;

/** Each creation schema made here, with the params schema whose fields it checks. */
const paramsSchemas = new WeakMap<ZodTypeAny, ZodObject<ZodRawShape>>();

/**
 * The params schema whose fields `createSchema` checks with that schema's own field schemas, when it
 * was made by createBodySchema: what it parsed for those keys is then what that params schema
 * answers, and parsing it again would only make a copy.
 */
export const paramsSchemaOf = (createSchema: ZodTypeAny): ZodTypeAny | undefined => paramsSchemas.get(createSchema);

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
  const schema = z
    .object(CommonCreateShape)
    .extend(common)
    .extend(params.shape)
    .strict()
    .superRefine((body, ctx) => rules?.(body, reportInto(ctx)));
  paramsSchemas.set(schema, params);
  return schema;
}
