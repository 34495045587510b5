/**
 * Sanitizes the HTML inside text attachments (TextCollectionAttachment of type text): only the tags
 * the interface lists survive; any other tag is removed and its text kept, except script and style,
 * whose content goes too. Surviving tags lose event-handler attributes, srcdoc and script URLs.
 *
 * Hand-written rather than a dependency: the content is Markdown with occasional HTML, the allowed
 * list is fixed, and the output only has to be safe and balanced, not a faithful DOM.
 */

const ALLOWED_TAGS: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'footer',
  'header',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hgroup',
  'main',
  'nav',
  'section',
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'br',
  'cite',
  'code',
  'data',
  'dfn',
  'em',
  'i',
  'kbd',
  'mark',
  'q',
  'rb',
  'rp',
  'rt',
  'rtc',
  'ruby',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
  'caption',
  'col',
  'colgroup',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'img',
  'iframe',
]);

/** Tags whose whole content is dropped, not just the tag. */
const DROPPED_WITH_CONTENT = new Set(['script', 'style', 'template', 'noscript', 'xmp', 'textarea', 'title']);
const VOID_TAGS = new Set(['br', 'img', 'col']);
/** Attributes never kept: srcdoc embeds a whole document, style can carry script in old engines. */
const BLOCKED_ATTRIBUTES = new Set(['srcdoc', 'style', 'formaction', 'action']);
const SAFE_DATA_URL = /^data:image\/(png|gif|jpe?g|webp);/i;

const TAG =
  /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?|\s*\/)*)\s*(\/?)>/;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

export function sanitizeHtml(input: string): string {
  let out = '';
  const open: string[] = [];
  let i = 0;
  while (i < input.length) {
    const lt = input.indexOf('<', i);
    if (lt === -1) {
      out += input.slice(i);
      break;
    }
    out += input.slice(i, lt);
    const step = markupAt(input, lt, open);
    out += step.html;
    i = step.next;
  }
  // Unclosed allowed tags are closed, so the fragment cannot swallow what follows it.
  return (
    out +
    open
      .reverse()
      .map((name) => `</${name}>`)
      .join('')
  );
}

/** One piece of markup starting at `<`: its safe rendering and where scanning continues. */
function markupAt(input: string, at: number, open: string[]): { html: string; next: number } {
  const rest = input.slice(at);
  if (rest.startsWith('<!--')) return { html: '', next: endOf(input, '-->', at + 4) };
  if (/^<[!?]/.test(rest)) return { html: '', next: endOf(input, '>', at + 2) };
  const match = TAG.exec(rest);
  // A `<` that does not start a well-formed tag is text; escaped so no tag can ever form from it.
  if (!match) return { html: '&lt;', next: at + 1 };
  // Groups 2 and 3 are not optional in TAG: a match always has them (the defaults only satisfy the type).
  const [whole, slash, rawName = '', attributes = '', selfClose] = match;
  const name = rawName.toLowerCase();
  const next = at + whole.length;
  if (DROPPED_WITH_CONTENT.has(name)) return { html: '', next: slash ? next : endOfElement(input, name, next) };
  if (!ALLOWED_TAGS.has(name)) return { html: '', next };
  if (slash) return { html: closeTag(name, open), next };
  if (!VOID_TAGS.has(name) && !selfClose) open.push(name);
  const attrs = safeAttributes(attributes);
  return { html: `<${name}${attrs}${VOID_TAGS.has(name) || !selfClose ? '' : `></${name}`}>`, next };
}

/** Closes `name` and anything opened inside it; a close tag nothing opened is dropped. */
function closeTag(name: string, open: string[]): string {
  const index = open.lastIndexOf(name);
  if (index === -1) return '';
  return open
    .splice(index)
    .reverse()
    .map((n) => `</${n}>`)
    .join('');
}

function endOf(input: string, terminator: string, from: number): number {
  const index = input.indexOf(terminator, from);
  return index === -1 ? input.length : index + terminator.length;
}

/** After `<script ...>`: skip to past `</script>`, or to the end when it is never closed. */
function endOfElement(input: string, name: string, from: number): number {
  const close = new RegExp(`</${name}\\s*>`, 'i').exec(input.slice(from));
  return close ? from + close.index + close[0].length : input.length;
}

function safeAttributes(source: string): string {
  let out = '';
  // Group 1 is not optional in ATTRIBUTE: a match always has it.
  for (const [, rawName = '', dq, sq, bare] of source.matchAll(ATTRIBUTE)) {
    const name = rawName.toLowerCase();
    if (name.startsWith('on') || BLOCKED_ATTRIBUTES.has(name) || !/^[a-z][a-z0-9_:.-]*$/.test(name)) continue;
    const value = dq ?? sq ?? bare;
    if (value === undefined) {
      out += ` ${name}`;
      continue;
    }
    if (isScriptUrl(value)) continue;
    out += ` ${name}="${value.replace(/"/g, '&quot;').replace(/</g, '&lt;')}"`;
  }
  return out;
}

/**
 * Whether a value would run script as a URL. Browsers decode entities and ignore whitespace and
 * control characters inside the scheme, so `jav&#x09;ascript:` counts; data URLs pass only as images.
 */
function isScriptUrl(value: string): boolean {
  const decoded = decodeEntities(value)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: it strips control characters (they hide `javascript:`)
    .replace(/[\u0000-\u0020\u007f-\u009f]/g, '')
    .toLowerCase();
  if (/^(javascript|vbscript|livescript):/.test(decoded)) return true;
  return decoded.startsWith('data:') && !SAFE_DATA_URL.test(decoded);
}

const NAMED_ENTITIES: Record<string, string> = {
  colon: ':',
  tab: '\t',
  newline: '\n',
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (whole, body: string) => {
    if (body[0] !== '#') return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
    const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}
