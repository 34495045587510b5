import { ZodError, type ZodIssue, type ZodType, type ZodTypeAny, type ZodTypeDef, z } from 'zod';
import { type State, StateSchema } from '../domain/state/schema.js';
import {
  DatasetDeliveryEnvelopeSchema,
  DatasetEnvelopeSchema,
  DatasetTaskStateSchema,
  DeliveryStateSchema,
  ResponseSchemaStateSchema,
} from '../domain/v2/catalog-state.js';
import { invalidParameters } from '../errors/index.js';
import { nextTurn, SLICE } from '../runtime/slices.js';
import { checkImportedTask } from '../services/imported-task-check.js';

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
const uncheckedList = z.array(z.unknown()).default([]);

export const StateEnvelopeSchema = StateSchema.extend({
  ...(Object.fromEntries(SLICED.map((field) => [field, unchecked(field)])) as {
    [K in SlicedField]: ReturnType<typeof unchecked>;
  }),
  // The v2 catalog too: datasets of thousands of tasks are checked delivery by delivery, tasks in slices.
  v2: z.object({ deliveries: uncheckedList, schemas: uncheckedList, datasets: uncheckedList }).strict().optional(),
});

/** The envelope with its lists checked: the same State, and the same messages, as StateSchema gives. */
export async function checkStateLists(envelope: z.infer<typeof StateEnvelopeSchema>): Promise<State> {
  const checked: Record<string, unknown> = { ...envelope };
  for (const field of SLICED) {
    const items = envelope[field] as unknown[] | undefined;
    if (items === undefined) continue;
    const check = field === 'tasks' ? checkTaskItem : undefined;
    checked[field] = await parseInSlices(itemSchema(field), items, [field], check);
  }
  if (envelope.v2) checked.v2 = await checkCatalog(envelope.v2);
  return checked as State;
}

/**
 * The v2 catalog's lists, each in slices; a dataset's deliveries one by one, their tasks in slices, and a turn
 * of the event loop after every SLICE deliveries and tasks together: 45,000 deliveries of a task or none each
 * were once checked in one turn (300 ms of other tenants' requests held up).
 */
async function checkCatalog(v2: { deliveries: unknown[]; schemas: unknown[]; datasets: unknown[] }) {
  const datasets: unknown[] = [];
  let checkedThisTurn = 0;
  for (const [d, item] of v2.datasets.entries()) {
    const dataset = parseAt(DatasetEnvelopeSchema, item, ['v2', 'datasets', d]);
    const deliveries: unknown[] = [];
    for (const [e, inner] of dataset.deliveries.entries()) {
      const at = ['v2', 'datasets', d, 'deliveries', e];
      const delivery = parseAt(DatasetDeliveryEnvelopeSchema, inner, at);
      deliveries.push({
        ...delivery,
        tasks: await parseInSlices(DatasetTaskStateSchema, delivery.tasks, [...at, 'tasks']),
      });
      checkedThisTurn += 1 + delivery.tasks.length;
      if (checkedThisTurn >= SLICE) {
        checkedThisTurn = 0;
        await nextTurn();
      }
    }
    datasets.push({ ...dataset, deliveries });
  }
  return {
    deliveries: await parseInSlices(DeliveryStateSchema, v2.deliveries, ['v2', 'deliveries']),
    schemas: await parseInSlices(ResponseSchemaStateSchema, v2.schemas, ['v2', 'schemas']),
    datasets,
  } as State['v2'];
}

/** One object checked at its place in the state (its issues' paths start there). */
function parseAt<T>(schema: ZodType<T, ZodTypeDef, unknown>, value: unknown, at: (string | number)[]): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalidParameters(
    new ZodError(result.error.issues.map((issue) => ({ ...issue, path: [...at, ...issue.path] }))),
  );
}

const checkTaskItem = (item: unknown, at: string) =>
  checkImportedTask((item as State['tasks'][number]).task, `${at}.task`);

/** One array schema per item schema, made once: making it per list cost more than checking a short list. */
const arrays = new WeakMap<ZodTypeAny, ZodTypeAny>();
function arrayOf<T>(schema: ZodType<T, ZodTypeDef, unknown>): ZodType<T[], ZodTypeDef, unknown> {
  let array = arrays.get(schema);
  if (!array) {
    array = z.array(schema);
    arrays.set(schema, array);
  }
  return array as ZodType<T[], ZodTypeDef, unknown>;
}

async function parseInSlices<T>(
  schema: ZodType<T, ZodTypeDef, unknown>,
  items: unknown[],
  at: (string | number)[],
  check?: (item: T, at: string) => void,
): Promise<T[]> {
  const slice = arrayOf(schema);
  const out: T[] = [];
  for (let start = 0; start < items.length; start += SLICE) {
    if (start > 0) await nextTurn();
    const result = slice.safeParse(items.slice(start, start + SLICE));
    if (!result.success)
      throw invalidParameters(new ZodError(result.error.issues.map((issue) => moved(issue, at, start))));
    if (check) {
      for (const [index, item] of result.data.entries()) check(item, `${at.join('.')}[${start + index}]`);
    }
    out.push(...result.data);
  }
  return out;
}

/** Issue paths count from the slice's start: move them (and those inside union errors) to the item's place. */
function moved(issue: ZodIssue, at: (string | number)[], start: number): ZodIssue {
  const path = [...at, Number(issue.path[0]) + start, ...issue.path.slice(1)];
  if (issue.code !== 'invalid_union') return { ...issue, path };
  const unionErrors = issue.unionErrors.map(
    (error) => new ZodError(error.issues.map((inner) => moved(inner, at, start))),
  );
  return { ...issue, path, unionErrors };
}
