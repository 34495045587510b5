import { createHash } from 'node:crypto';
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
 * Only the synchronous parse (the server's) is replaced; an asynchronous one runs zod's own code. The
 * replaced method is zod 3.25.76's: another version's is left alone (ZOD_EFFECTS_FIXED is then false,
 * and test/zod-effects-fix.test.ts says so).
 */

/** The source of the method this replaces (zod 3.25.76), by hash: a changed method is not replaced. */
const FIXED_SOURCE_SHA1 = '6131f741300a';

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

function applyFix(): boolean {
  const original = ZodEffects.prototype._parse;
  const hash = createHash('sha1').update(original.toString()).digest('hex').slice(0, FIXED_SOURCE_SHA1.length);
  if (hash !== FIXED_SOURCE_SHA1) return false;
  ZodEffects.prototype._parse = function parse(this: Effects, input: ParseInput) {
    const sync = !input.parent.common.async && FIXED_EFFECTS.has(this._def.effect.type);
    return sync ? syncParse.call(this, input) : original.call(this, input);
  };
  return true;
}

/** Whether this zod's ZodEffects got the fix (false: a zod other than 3.25.76). */
export const ZOD_EFFECTS_FIXED = applyFix();
