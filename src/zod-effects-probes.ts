import { type RefinementCtx, z } from 'zod';

/**
 * The probes that decide whether src/zod-effects-fix.ts may replace zod's ZodEffects parse: each branch
 * the replacement reimplements (preprocess, refinement, transform; clean, dirty, fatal, a failed base, a
 * detached addIssue, the path a refinement sees, an async refinement in a synchronous parse), run once
 * under zod's method and once under the replacement. Equal outcomes, and the fix goes in.
 */

/** What one probe answered, as plain data: a parse's result, what its refinements saw, or what it threw. */
type Outcome = unknown;

/** The path each refinement saw (a copy, as the context's own array is zod's). */
function seenPaths(): { record: (ctx: RefinementCtx) => void; paths: unknown[] } {
  const paths: unknown[] = [];
  return { paths, record: (ctx) => void paths.push([...ctx.path]) };
}

function outcomeOf(schema: z.ZodTypeAny, input: unknown): Outcome {
  try {
    const result = schema.safeParse(input);
    if (result.success) return { success: true, data: result.data };
    return { success: false, issues: result.error.issues };
  } catch (err) {
    return { threw: err instanceof Error ? err.message : String(err) };
  }
}

function probeSchemas(record: (ctx: RefinementCtx) => void): [z.ZodTypeAny, unknown[]][] {
  const negative = z.number().superRefine((n, { addIssue }) => {
    if (n < 0) addIssue({ code: 'custom', message: 'negative', fatal: n < -10 });
  });
  const refined = z.object({
    list: z.array(negative.refine((n) => n !== -1, 'minus one').superRefine((_, ctx) => record(ctx))),
  });
  const preprocessed = z.object({
    n: z.preprocess((v, ctx) => {
      record(ctx);
      if (v === 'fatal') ctx.addIssue({ code: 'custom', message: 'fatal', fatal: true });
      if (v === 'dirty') ctx.addIssue({ code: 'custom', message: 'dirty' });
      return typeof v === 'string' ? Number(v) : v;
    }, z.number().int()),
  });
  const transformed = z.object({
    s: z.string().transform((s, ctx) => {
      record(ctx);
      if (s === 'bad') ctx.addIssue({ code: 'custom', message: 'bad' });
      return s === 'never' ? z.NEVER : s.toUpperCase();
    }),
  });
  const asyncRefined = z.string().refine(async (s) => s === 'ok');
  return [
    [refined, [{ list: [1, 2] }, { list: [1, -1, -20] }, { list: ['x', -1] }]],
    [preprocessed, [{ n: '42' }, { n: 'x' }, { n: 'fatal' }, { n: 'dirty' }, { n: 1.5 }]],
    [transformed, [{ s: 'ok' }, { s: 3 }, { s: 'bad' }, { s: 'never' }]],
    [asyncRefined, ['ok']],
  ];
}

/** Every probe's outcome under the ZodEffects parse installed now. */
export function runProbes(): Outcome[] {
  const { record, paths } = seenPaths();
  const outcomes: Outcome[] = [];
  for (const [schema, inputs] of probeSchemas(record)) {
    for (const input of inputs) outcomes.push(outcomeOf(schema, input));
  }
  return [...outcomes, paths];
}

/** Whether two runs of the probes answered alike (outcomes are plain JSON data). */
export function sameOutcomes(a: Outcome[], b: Outcome[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Whether zod's own method hands refinements a context whose `path` is a getter: the cost the fix removes. */
export function handsOutGetterContext(): boolean {
  let seen: RefinementCtx | undefined;
  z.string()
    .superRefine((_, ctx) => {
      seen = ctx;
    })
    .safeParse('x');
  return seen !== undefined && typeof Object.getOwnPropertyDescriptor(seen, 'path')?.get === 'function';
}
