/**
 * The spellings a secret takes in a recording, and the decoded views of a text in which any spelling becomes the
 * plain one: what `labelmock record` rewrites (redact.ts) and what its last check searches before it writes.
 * Encoders differ: JSON may escape `/` (PHP) or `&`, `<`, `>` (Go), a form encodes `!` or `/` (Python's urlencode,
 * curl --data-urlencode) where encodeURIComponent does not, and base64 shifts with the bytes before the secret.
 */

/** Every byte but letters and digits as %XX: what the most eager percent-encoder writes. */
const percentAll = (text: string, hex: (code: string) => string) =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${hex(byte.toString(16).padStart(2, '0'))}`,
    )
    .join('');

const GO_ESCAPES: Record<string, string> = { '&': '\\u0026', '<': '\\u003c', '>': '\\u003e' };

/** The forms a secret takes in a recording's text (plain, percent- and form-encoded, JSON-escaped). */
export function formsOf(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  return [
    ...new Set([
      secret,
      encodeURIComponent(secret),
      new URLSearchParams({ s: secret }).toString().slice(2),
      percentAll(secret, (h) => h.toUpperCase()),
      percentAll(secret, (h) => h.toLowerCase()),
      json,
      json.replaceAll('/', '\\/'),
      json.replace(/[&<>]/g, (c) => GO_ESCAPES[c] as string),
    ]),
  ];
}

/**
 * The base64 of a secret at each of the three offsets it can start at in an encoded stream, without the
 * characters its neighbours share: any base64 text holding the secret's bytes holds one of these.
 */
export function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms: string[] = [];
  for (let before = 0; before < 3; before += 1) {
    const encoded = Buffer.concat([Buffer.alloc(before), bytes]).toString('base64');
    const start = before === 0 ? 0 : before + 1;
    // Whole 6-bit groups only: a last character that also holds the next byte's bits is left out.
    const end = Math.floor(((before + bytes.length) * 4) / 3);
    const form = encoded.slice(start, end);
    if (form.length >= 4) forms.push(form);
  }
  return forms;
}

/** Each string of a JSON text, keys included (none when the text is not JSON, or nests past the parser). */
function jsonStrings(text: string): string[] {
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[' && first !== '"') return [];
  const found: string[] = [];
  try {
    JSON.parse(text, (key, value: unknown) => {
      if (key !== '') found.push(key);
      if (typeof value === 'string') found.push(value);
      return value;
    });
  } catch {
    return [];
  }
  return found;
}

/** A text percent-decoded where it can be (a bad escape is left as it is, not an error). */
function percentDecoded(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** Each name and value of a form-encoded text (`+` is a space, `%XX` a byte). */
function formValues(text: string): string[] {
  if (!text.includes('=')) return [];
  return [...new URLSearchParams(text)].flat();
}

/**
 * The texts a recorded text stands for once decoded: itself, its JSON strings, its form names and values, and
 * its percent-decoded form. A secret in any encoding these undo is plain in one of them.
 */
export function decodedViews(text: string): string[] {
  return [text, ...jsonStrings(text), ...formValues(text), percentDecoded(text)];
}
