import { z, ZodError, type ZodIssue, type ZodType } from 'zod';
import { describeZodError } from '../domain/zod-messages.js';
import { invalid } from '../errors.js';
import { type State, StateSchema, StateTaskSchema } from './schemas.js';

/** Tasks checked per turn of the event loop (each slice takes a few milliseconds). */
const SLICE = 250;

/**
 * What PUT /_mock/state checks at the edge: everything but the tasks, which are checked after, in
 * slices, so a 5 MB import of thousands of tasks never holds up other tenants' requests for long.
 * The route documents the whole StateSchema.
 */
export const StateEnvelopeSchema = StateSchema.extend({ tasks: z.array(z.unknown()) });

/** The envelope with its tasks checked: the same State, and the same messages, as StateSchema gives. */
export async function checkStateTasks(envelope: z.infer<typeof StateEnvelopeSchema>): Promise<State> {
  const tasks = await parseInSlices(StateTaskSchema, envelope.tasks, 'tasks');
  return { ...envelope, tasks };
}

async function parseInSlices<T>(schema: ZodType<T, any, any>, items: unknown[], field: string): Promise<T[]> {
  const slice = z.array(schema);
  const out: T[] = [];
  for (let start = 0; start < items.length; start += SLICE) {
    if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const result = slice.safeParse(items.slice(start, start + SLICE));
    if (!result.success) throw invalid(describeZodError(new ZodError(result.error.issues.map((issue) => moved(issue, field, start)))));
    out.push(...result.data);
  }
  return out;
}

/** Issue paths count from the slice's start: move them (and those inside union errors) to the item's place. */
function moved(issue: ZodIssue, field: string, start: number): ZodIssue {
  const path = [field, Number(issue.path[0]) + start, ...issue.path.slice(1)];
  if (issue.code !== 'invalid_union') return { ...issue, path };
  const unionErrors = issue.unionErrors.map((error) => new ZodError(error.issues.map((inner) => moved(inner, field, start))));
  return { ...issue, path, unionErrors };
}
