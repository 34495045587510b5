import { type ZodTypeAny, z } from 'zod';

/**
 * Arrays whose size is checked before their items. zod's `.max()` adds its issue only after every
 * item was validated, so a 500,000-item list was checked item by item before "at most 5" refused it.
 * Here a preprocess step counts first and stops the parse (a fatal issue) when the count is over;
 * the inner `.max()` stays for the OpenAPI document (maxItems).
 */

interface Bounds {
  max: number;
  min?: number;
}

const tooMany = (ctx: z.RefinementCtx, max: number) =>
  ctx.addIssue({ code: 'too_big', type: 'array', maximum: max, inclusive: true, exact: false, fatal: true });

const arrayOf = <T extends ZodTypeAny>(item: T, { max, min }: Bounds) =>
  min ? z.array(item).min(min).max(max) : z.array(item).max(max);

/** An array of at most `max` items, refused by its length before any item is validated. */
export function boundedArray<T extends ZodTypeAny>(item: T, bounds: Bounds) {
  return z.preprocess(
    (value, ctx) => {
      if (Array.isArray(value) && value.length > bounds.max) tooMany(ctx, bounds.max);
      return value;
    },
    arrayOf(item, bounds),
  );
}

/**
 * How many entries a tree of lists holds (entries of the list and of every `childKey` list below
 * them), counted iteratively and only up to `limit`: the count itself must stay cheap on a hostile
 * body. Entries that are not objects or have no such list count once.
 */
function countTreeEntries(list: unknown[], childKey: string, limit: number): number {
  let count = 0;
  const pending: unknown[][] = [list];
  while (pending.length > 0 && count <= limit) {
    const current = pending.pop() as unknown[];
    count += current.length;
    for (const entry of current) {
      if (entry !== null && typeof entry === 'object' && !Array.isArray(entry) && Object.hasOwn(entry, childKey)) {
        const children = (entry as Record<string, unknown>)[childKey];
        if (Array.isArray(children)) pending.push(children);
      }
    }
  }
  return count;
}

/**
 * A list whose entries nest further lists under `childKey` (labels and subchoices, NER labels and
 * children): at most `treeMax` entries in the whole tree (and `max` in the list itself, when given),
 * counted before any entry is validated.
 */
export function boundedTree<T extends ZodTypeAny>(
  item: T,
  bounds: { min?: number; max?: number; treeMax: number; childKey: string; what: string },
) {
  const listBounds = { min: bounds.min, max: bounds.max ?? bounds.treeMax };
  return z.preprocess(
    (value, ctx) => {
      if (!Array.isArray(value)) return value;
      if (value.length > listBounds.max) tooMany(ctx, listBounds.max);
      else if (countTreeEntries(value, bounds.childKey, bounds.treeMax) > bounds.treeMax) {
        ctx.addIssue({
          code: 'custom',
          fatal: true,
          message: `must have at most ${bounds.treeMax} ${bounds.what} (${bounds.childKey} included)`,
        });
      }
      return value;
    },
    arrayOf(item, listBounds),
  );
}
