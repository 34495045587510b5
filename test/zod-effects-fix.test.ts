import { describe, expect, it } from 'vitest';
import { type ParseInput, type RefinementCtx, ZodEffects, z } from 'zod';
import { zodEffectsFixed } from '../src/runtime/zod-effects-mark.js';
import { ZOD_EFFECTS_FIXED } from '../src/zod-effects-fix.js';
import { handsOutGetterContext, runProbes, sameOutcomes } from '../src/zod-effects-probes.js';

/** The refinement contexts a schema's refinements were handed, in order. */
function contextsOf(run: (seen: RefinementCtx[]) => void): RefinementCtx[] {
  const seen: RefinementCtx[] = [];
  run(seen);
  return seen;
}

describe('the ZodEffects fix (src/zod-effects-fix.ts)', () => {
  it('is applied to the zod this repository pins (an upgrade must look at it again)', () => {
    expect(ZOD_EFFECTS_FIXED).toBe(true);
    expect(zodEffectsFixed()).toBe(true);
  });

  it("is decided by what the method does: the probes tell zod's parse from one that differs in any branch", () => {
    const fixed = ZodEffects.prototype._parse;
    const expected = runProbes();
    // A parse that forgets that a fatal issue stops the rest: what a changed zod could do.
    ZodEffects.prototype._parse = function lenient(this: ZodEffects<z.ZodTypeAny>, input: ParseInput) {
      const answer = fixed.call(this, input);
      return 'status' in answer && answer.status === 'aborted' ? { status: 'dirty', value: input.data } : answer;
    };
    try {
      expect(sameOutcomes(runProbes(), expected)).toBe(false);
    } finally {
      ZodEffects.prototype._parse = fixed;
    }
    expect(sameOutcomes(runProbes(), expected)).toBe(true);
  });

  it('replaces the getter context zod hands out: the probe sees none once the fix is in', () => {
    expect(handsOutGetterContext()).toBe(false);
  });

  it('hands refinements a context whose path is a plain property, not a getter per parse', () => {
    const seen = contextsOf((list) => {
      const schema = z.object({ a: z.object({ b: z.string().superRefine((_, ctx) => void list.push(ctx)) }) });
      schema.parse({ a: { b: 'x' } });
      schema.parse({ a: { b: 'y' } });
    });
    expect(seen).toHaveLength(2);
    for (const ctx of seen) {
      expect(ctx.path).toEqual(['a', 'b']);
      expect(Object.getOwnPropertyDescriptor(ctx, 'path')?.get).toBeUndefined();
    }
    expect(Object.getPrototypeOf(seen[0])).toBe(Object.getPrototypeOf(seen[1]));
  });

  it('reports issues at the refined value, a detached addIssue included, and a fatal one stops the rest', () => {
    const schema = z.object({
      list: z.array(
        z
          .number()
          .superRefine((n, { addIssue }) => {
            if (n < 0) addIssue({ code: 'custom', message: 'negative', fatal: n < -10 });
          })
          .refine((n) => n !== -1, 'minus one'),
      ),
    });
    const result = schema.safeParse({ list: [1, -1, -20] });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['list.1', 'negative'],
      ['list.1', 'minus one'],
      ['list.2', 'negative'],
    ]);
  });

  it('transforms and preprocesses as zod does, and a failed base skips the transform', () => {
    const schema = z.object({
      n: z.preprocess((v) => (typeof v === 'string' ? Number(v) : v), z.number().int()),
      s: z.string().transform((s) => s.toUpperCase()),
    });
    expect(schema.parse({ n: '42', s: 'ok' })).toEqual({ n: 42, s: 'OK' });
    const failed = schema.safeParse({ n: 'x', s: 3 });
    expect(failed.error?.issues.map((i) => i.path.join('.'))).toEqual(['n', 's']);
  });

  it('refuses an async refinement in a synchronous parse and still runs one in parseAsync', async () => {
    const schema = z.string().refine(async (s) => s === 'ok', 'not ok');
    expect(() => schema.parse('ok')).toThrow(/Async refinement encountered during synchronous parse/);
    await expect(schema.parseAsync('ok')).resolves.toBe('ok');
    await expect(schema.parseAsync('no')).rejects.toThrow(/not ok/);
  });
});
