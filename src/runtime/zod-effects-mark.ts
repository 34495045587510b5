import { ZodEffects } from 'zod';

/**
 * The mark src/zod-effects-fix.ts sets on the ZodEffects parse it installs, so that any layer (the health
 * route) can tell whether this process runs the fix: the bin and the image do; a library import of
 * labelmock leaves its user's zod alone and does not.
 */
const MARK = Symbol.for('labelmock.zod-effects-fix');

export function markZodEffectsFix(parse: object): void {
  Object.defineProperty(parse, MARK, { value: true });
}

/** Whether the ZodEffects parse installed in this process now is labelmock's fix. */
export function zodEffectsFixed(): boolean {
  return Object.hasOwn(ZodEffects.prototype._parse, MARK);
}
