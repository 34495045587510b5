import { nextTurn } from '../runtime/slices.js';

/** About this much JSON text is handed out per turn of the event loop. */
const PIECE_CHARS = 256 * 1024;

/**
 * `{"<field>":[item,item,...]}` as JSON text in pieces, with a turn of the event loop between pieces: a list of
 * a thousand large items (journal entries, callback deliveries) never holds up other requests for long, and
 * the whole text never sits in memory at once. `items` is read lazily, so each item is made as it is written.
 */
export function jsonListPieces(field: string, items: Iterable<unknown>): AsyncGenerator<string> {
  return jsonArrayPieces(`{${JSON.stringify(field)}:[`, items, ']}');
}

/** `head`, the items as a JSON array's elements, then `tail`, in pieces as jsonListPieces writes them. */
export async function* jsonArrayPieces(head: string, items: Iterable<unknown>, tail: string): AsyncGenerator<string> {
  let text = head;
  let first = true;
  for (const item of items) {
    text += (first ? '' : ',') + JSON.stringify(item);
    first = false;
    if (text.length >= PIECE_CHARS) {
      yield text;
      text = '';
      await nextTurn();
    }
  }
  yield `${text}${tail}`;
}
