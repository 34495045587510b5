import {
  addIssueToContext,
  DIRTY,
  INVALID,
  isValid,
  type ParseContext,
  type ParseInput,
  type ParseReturnType,
  type ParseStatus,
  type RefinementCtx,
  ZodEffects,
  type ZodTypeAny,
} from 'zod';
import { markZodEffectsFix } from './runtime/zod-effects-mark.js';
import { handsOutGetterContext, runProbes, sameOutcomes } from './zod-effects-probes.js';

/**
 * A fix for zod 3's ZodEffects (every refine, superRefine, transform and preprocess), applied once
 * when the CLI starts (src/cli.ts: its process owns zod; a library must not change its users' modules,
 * so `import 'labelmock'` leaves zod alone); what a parse answers is unchanged.
 *
 * Zod 3 hands each refinement a context built as an object literal with a getter (`get path()`) closing
 * over that parse. A getter is part of an object's hidden class, so every parse made a new hidden class,
 * which V8 keeps in the old generation; it pointed at the parse's context, so every parse's working
 * objects (the input and everything made from it) outlived the next young collection and were copied
 * into the old generation, where only a full collection frees them. A task creation left about 10 KB
 * there: the server's memory grew several times faster than what it held, and the copying was most of
 * a creation's validation time. Here the context is a plain object of a class; `path` is the very
 * array the getter answered (zod never reassigns a context's path).
 *
 * Only the synchronous parse (the server's) is replaced; an asynchronous one runs zod's own code.
 *
 * Whether to replace is decided by what zod's method does, not by its source text: a bundler reprints the
 * method (esbuild's dist/labelmock.mjs did, and a check by the text's hash left the fix off in the very
 * build users run). The replacement is installed only when zod's own method still hands out a getter
 * context (the cost this removes) and the replacement answers every probe (zod-effects-probes.ts) exactly
 * as zod's method does; another zod is left alone (ZOD_EFFECTS_FIXED is then false, the bin says so on
 * stderr, and GET /_mock/health answers fast_validation: false).
 */

class RefinementContext implements RefinementCtx {
  readonly addIssue: RefinementCtx['addIssue'];
  readonly path: (string | number)[];

  constructor(ctx: ParseContext, status: ParseStatus) {
    this.path = ctx.path;
    // An own function, as zod's is bound: a refinement may call it detached (`const { addIssue } = ctx`).
    this.addIssue = (issue) => {
      addIssueToContext(ctx, issue);
      if (issue.fatal) status.abort();
      else status.dirty();
    };
  }
}

type Effects = ZodEffects<ZodTypeAny, unknown, unknown>;

function syncParse(this: Effects, input: ParseInput): ParseReturnType<unknown> {
  const { status, ctx } = this._processInputParams(input);
  const effect = this._def.effect;
  const checkCtx = new RefinementContext(ctx, status);
  if (effect.type === 'preprocess') {
    const processed = effect.transform(ctx.data, checkCtx);
    if (status.value === 'aborted') return INVALID;
    const result = this._def.schema._parseSync({ data: processed, path: ctx.path, parent: ctx });
    if (result.status === 'aborted') return INVALID;
    if (result.status === 'dirty' || status.value === 'dirty') return DIRTY(result.value);
    return result;
  }
  if (effect.type === 'refinement') {
    const base = this._def.schema._parseSync({ data: ctx.data, path: ctx.path, parent: ctx });
    if (base.status === 'aborted') return INVALID;
    if (base.status === 'dirty') status.dirty();
    const verdict: unknown = effect.refinement(base.value, checkCtx);
    if (verdict instanceof Promise) {
      throw new Error('Async refinement encountered during synchronous parse operation. Use .parseAsync instead.');
    }
    return { status: status.value, value: base.value };
  }
  const base = this._def.schema._parseSync({ data: ctx.data, path: ctx.path, parent: ctx });
  if (!isValid(base)) return INVALID;
  const result: unknown = effect.transform(base.value, checkCtx);
  if (result instanceof Promise) {
    throw new Error('Asynchronous transform encountered during synchronous parse operation. Use .parseAsync instead.');
  }
  return { status: status.value, value: result };
}

/** The kinds of effect zod 3.25.76 knows; another kind (none exists) would go to zod's own code. */
const FIXED_EFFECTS = new Set(['preprocess', 'refinement', 'transform']);

function installFix(): void {
  const original = ZodEffects.prototype._parse;
  const parse = function parse(this: Effects, input: ParseInput) {
    const sync = !input.parent.common.async && FIXED_EFFECTS.has(this._def.effect.type);
    return sync ? syncParse.call(this, input) : original.call(this, input);
  };
  markZodEffectsFix(parse);
  ZodEffects.prototype._parse = parse;
}

/** Installs the fix when zod's method is the one it was written for (see above); answers whether it did. */
function applyFix(): boolean {
  const original = ZodEffects.prototype._parse;
  if (!handsOutGetterContext()) return false;
  const expected = runProbes();
  installFix();
  if (sameOutcomes(runProbes(), expected)) return true;
  ZodEffects.prototype._parse = original;
  return false;
}

/** Whether this zod's ZodEffects got the fix (false: a zod whose method differs from 3.25.76's). */
export const ZOD_EFFECTS_FIXED = applyFix();
