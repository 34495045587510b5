import { isRecord } from '../../domain/tasks/is-record.js';

/**
 * The real service's ids and the ones labelmock minted for the same records: learned as each replayed answer
 * comes back beside the recorded one, then put in place of the recorded ids in the requests that follow.
 */

/** Keys whose values are ids the service mints: `id`, `task_id`, `batch_id`, ... */
export const isIdKey = (key: string) => key === 'id' || key.endsWith('_id');

/** Shorter strings are too likely to stand for something else in a path or a body. */
const MIN_ID_CHARS = 8;

export class IdMap {
  private readonly ids = new Map<string, string>();

  /** labelmock's id for a recorded one, once learned. */
  mockOf(recorded: string): string | undefined {
    return this.ids.get(recorded);
  }

  /** Learns every id the two answers hold at the same place. */
  learn(recorded: unknown, mock: unknown): void {
    if (Array.isArray(recorded) && Array.isArray(mock)) {
      for (const [index, item] of recorded.entries()) this.learn(item, mock[index]);
      return;
    }
    if (!isRecord(recorded) || !isRecord(mock)) return;
    for (const [key, value] of Object.entries(recorded)) {
      const other = mock[key];
      if (isIdKey(key) && typeof value === 'string' && typeof other === 'string') {
        if (value.length >= MIN_ID_CHARS && !this.ids.has(value)) this.ids.set(value, other);
      } else this.learn(value, other);
    }
  }

  /** How many values are mapped. */
  get size(): number {
    return this.ids.size;
  }

  /**
   * Maps a recorded value to one drift chose (a callback URL put on the local sink): the same one each time.
   * Compared answers then hold the chosen value where the recording held the other.
   */
  alias(recorded: string, choose: () => string): string {
    let chosen = this.ids.get(recorded);
    if (chosen === undefined) {
      chosen = choose();
      this.ids.set(recorded, chosen);
    }
    return chosen;
  }

  /** The text with every recorded id it holds replaced by labelmock's. */
  substitute(text: string): string {
    let out = text;
    for (const [recorded, mock] of this.ids) if (out.includes(recorded)) out = out.split(recorded).join(mock);
    return out;
  }
}
