/**
 * Values made of a task once per revision: a revision is deep-frozen and replaced on any change, so what is made
 * of it holds while it does (v1 keeps a task's JSON the same way). `alongside` are the values kept beside the
 * revision that may change without it (the stored threads, the error type, the task's delivery): when any differs,
 * the value is made again. `key` tells apart the shapes made of one revision (the `opts` asked for). Weak: a
 * revision no record holds any more takes its values with it.
 */
export class RevisionCache<V> {
  private readonly entries = new WeakMap<object, { alongside: readonly unknown[]; byKey: Map<string, V> }>();

  get(revision: object, alongside: readonly unknown[], key: string, make: () => V): V {
    let entry = this.entries.get(revision);
    if (!entry || entry.alongside.some((value, i) => value !== alongside[i])) {
      entry = { alongside, byKey: new Map() };
      this.entries.set(revision, entry);
    }
    let value = entry.byKey.get(key);
    if (value === undefined) {
      value = make();
      entry.byKey.set(key, value);
    }
    return value;
  }
}
