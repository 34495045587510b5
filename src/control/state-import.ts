import { ZodError, type ZodIssue, type ZodType, type ZodTypeAny, type ZodTypeDef, z } from 'zod';
import { type State, StateSchema } from '../domain/state/schema.js';
import { invalidParameters } from '../errors/index.js';
import { checkImportedTask } from '../services/imported-task-check.js';

/** Items checked per turn of the event loop (each slice takes a few milliseconds). */
const SLICE = 250;

/**
 * The lists an import may carry by the thousand (files stay whole: their checks span the list, and
 * bytes bound them).
 */
const SLICED = [
  'tasks',
  'training_attempts',
  'projects',
  'batches',
  'quality_tasks',
  'team',
  'callbacks',
  'scheduled_jobs',
] as const;
type SlicedField = (typeof SLICED)[number];

/** The schema of one item of a list field of the state. */
function itemSchema(field: SlicedField): ZodTypeAny {
  let schema: ZodTypeAny = StateSchema.shape[field];
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault) schema = schema._def.innerType;
  return (schema as z.ZodArray<ZodTypeAny>).element;
}

const unchecked = (field: SlicedField) => {
  const list = z.array(z.unknown());
  return field === 'tasks' ? list : field === 'team' ? list.optional() : list.default([]);
};

/**
 * What PUT /_mock/state checks at the edge: everything but its long lists, which are checked after,
 * in slices, so a 5 MB import of thousands of items never holds up other tenants' requests for long.
 * The route documents the whole StateSchema.
 */
export const StateEnvelopeSchema = StateSchema.extend(
  Object.fromEntries(SLICED.map((field) => [field, unchecked(field)])) as {
    [K in SlicedField]: ReturnType<typeof unchecked>;
  },
);

/** The envelope with its lists checked: the same State, and the same messages, as StateSchema gives. */
export async function checkStateLists(envelope: z.infer<typeof StateEnvelopeSchema>): Promise<State> {
  const checked: Record<string, unknown> = { ...envelope };
  for (const field of SLICED) {
    const items = envelope[field] as unknown[] | undefined;
    if (items === undefined) continue;
    const check = field === 'tasks' ? checkTaskItem : undefined;
    checked[field] = await parseInSlices(itemSchema(field), items, field, check);
  }
  return checked as State;
}

const checkTaskItem = (item: unknown, at: string) =>
  checkImportedTask((item as State['tasks'][number]).task, `${at}.task`);

async function parseInSlices<T>(
  schema: ZodType<T, ZodTypeDef, unknown>,
  items: unknown[],
  field: string,
  check?: (item: T, at: string) => void,
): Promise<T[]> {
  const slice = z.array(schema);
  const out: T[] = [];
  for (let start = 0; start < items.length; start += SLICE) {
    if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const result = slice.safeParse(items.slice(start, start + SLICE));
    if (!result.success)
      throw invalidParameters(new ZodError(result.error.issues.map((issue) => moved(issue, field, start))));
    if (check) {
      for (const [index, item] of result.data.entries()) check(item, `${field}[${start + index}]`);
    }
    out.push(...result.data);
  }
  return out;
}

/** Issue paths count from the slice's start: move them (and those inside union errors) to the item's place. */
function moved(issue: ZodIssue, field: string, start: number): ZodIssue {
  const path = [field, Number(issue.path[0]) + start, ...issue.path.slice(1)];
  if (issue.code !== 'invalid_union') return { ...issue, path };
  const unionErrors = issue.unionErrors.map(
    (error) => new ZodError(error.issues.map((inner) => moved(inner, field, start))),
  );
  return { ...issue, path, unionErrors };
}
