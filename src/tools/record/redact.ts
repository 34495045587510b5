import type { HarEntry } from '../../domain/har/schema.js';
import { base64Forms, decodedViews, formsOf } from './secret-forms.js';

/**
 * Secrets out of a recording, as each entry is written: credential headers whole, signatures and tokens in
 * URLs' query strings and userinfo, and every string the user names (`--redact TEXT`) or the requests'
 * credentials reveal (an API key echoed in a body), in every spelling of secret-forms.ts, wherever it stands.
 * A JSON or form body whose decoded strings still hold one (an escaping no spelling covers) is rewritten from
 * its decoded values; an answer kept as base64 that holds one is not kept. Each replacement is named in the
 * entry's `_labelmock.redacted`. `leaks` then searches every decoded view for what survived.
 */

const REDACTED = 'REDACTED';

/** Headers whose value is a credential, whole (lower-case). */
const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'scale-callback-auth',
  'x-api-key',
  'api-key',
]);

/** Query parameters that carry a credential or a signature (signed attachment URLs, tokens). */
const SECRET_PARAMS =
  'x-amz-signature|x-amz-credential|x-amz-security-token|x-goog-signature|x-goog-credential|signature|sig|' +
  'token|access_token|api_key|apikey|key|password|secret|auth';
// A value ends at a backslash too: in JSON text `\u0026` (Go's `&`) starts the next parameter.
const SECRET_PARAM = new RegExp(`([?&](?:${SECRET_PARAMS})=)[^&#"'\\s\\\\]*`, 'gi');
/** A secret parameter whose value is still there (a leak, in a decoded view). */
const UNREDACTED_PARAM = new RegExp(`[?&](?:${SECRET_PARAMS})=(?!${REDACTED})[^&#"'\\s\\\\]`, 'i');
const SECRET_PARAM_NAME = new RegExp(`^(?:${SECRET_PARAMS})$`, 'i');
const USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s"']+@/gi;
/** Userinfo still in a URL (a leak, in decoded bytes). */
const USERINFO_VALUE = new RegExp(`\\bhttps?://(?!${REDACTED}@)[^/@\\s"']+@`, 'i');

/** The shorter a secret, the likelier it is an ordinary word: such strings are refused as --redact values. */
export const MIN_SECRET_CHARS = 6;

/** What an Authorization header reveals: a Basic user and password, or a Bearer token. */
function credentialsIn(value: string): string[] {
  const [scheme, token = ''] = value.trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() === 'bearer') return [token];
  if (scheme?.toLowerCase() !== 'basic') return [];
  const decoded = Buffer.from(token, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return (colon < 0 ? [decoded] : [decoded.slice(0, colon), decoded.slice(colon + 1)]).concat(token);
}

export class Redactor {
  private readonly secrets = new Set<string>();

  constructor(given: readonly string[]) {
    for (const secret of given) this.secrets.add(secret);
  }

  /** Every secret held, the given and the learned ones. */
  get known(): readonly string[] {
    return [...this.secrets];
  }

  /** Learns the request's credentials, then redacts the entry in place. */
  redact(entry: HarEntry): void {
    for (const header of entry.request.headers) {
      if (header.name.toLowerCase() !== 'authorization') continue;
      for (const found of credentialsIn(header.value)) if (found.length >= MIN_SECRET_CHARS) this.secrets.add(found);
    }
    const where: string[] = [];
    const scrub = (text: string, at: string) => {
      const out = this.scrubText(text);
      if (out !== text) where.push(at);
      return out;
    };
    for (const [side, headers] of [
      ['request', entry.request.headers],
      ['response', entry.response.headers],
    ] as const) {
      for (const header of headers) {
        const at = `${side}.headers.${header.name.toLowerCase()}`;
        if (SECRET_HEADERS.has(header.name.toLowerCase())) {
          header.value = REDACTED;
          where.push(at);
        } else header.value = scrub(header.value, at);
      }
    }
    entry.request.cookies = [];
    entry.response.cookies = [];
    entry.request.url = scrub(entry.request.url, 'request.url');
    for (const param of entry.request.queryString) {
      const at = `request.queryString.${param.name}`;
      if (SECRET_PARAM_NAME.test(param.name)) {
        if (param.value !== REDACTED) where.push(at);
        param.value = REDACTED;
      } else param.value = scrub(param.value, at);
    }
    const post = entry.request.postData;
    if (post?.text !== undefined) post.text = this.scrubBody(scrub(post.text, 'request.postData.text'), post.mimeType);
    for (const param of post?.params ?? []) {
      if (param.value !== undefined) param.value = scrub(param.value, `request.postData.params.${param.name}`);
    }
    const content = entry.response.content;
    if (content.text !== undefined && content.encoding !== 'base64') {
      content.text = this.scrubBody(scrub(content.text, 'response.content.text'), content.mimeType);
    } else if (content.text !== undefined && this.holdsSecret(Buffer.from(content.text, 'base64'))) {
      // Binary: its bytes cannot be rewritten without breaking it, so none is kept.
      entry.response.content = {
        size: content.size,
        mimeType: content.mimeType,
        comment: `${content.size} bytes not kept (they held a secret)`,
      };
      where.push('response.content.text');
    }
    entry.response.redirectURL = scrub(entry.response.redirectURL, 'response.redirectURL');
    if (where.length > 0) entry._labelmock = { ...entry._labelmock, redacted: [...new Set(where)] };
  }

  /**
   * A body whose decoded strings still hold a secret after the text was scrubbed (an escaping no spelling covers:
   * `\u00XX` for any character, a form's `%XX` of a character encodeURIComponent keeps): rewritten from its
   * decoded JSON or form values, scrubbed. A JSON text nested past what can be rewritten is replaced whole.
   */
  private scrubBody(text: string, mimeType: string): string {
    if (decodedViews(text).every((view) => this.scrubText(view) === view)) return text;
    if (/x-www-form-urlencoded/i.test(mimeType)) {
      const pairs = [...new URLSearchParams(text)].map(([name, value]) => [
        this.scrubText(name),
        this.scrubText(value),
      ]);
      return new URLSearchParams(pairs).toString();
    }
    try {
      const scrubbed = (value: unknown) => (typeof value === 'string' ? this.scrubText(value) : value);
      return JSON.stringify(JSON.parse(text, (_key, value: unknown) => scrubbed(value)));
    } catch {
      return `${REDACTED} (a body that held a secret in a form labelmock record could not rewrite)`;
    }
  }

  /** Whether bytes (an answer kept as base64) hold a secret or an unredacted signature, decoded. */
  private holdsSecret(bytes: Buffer): boolean {
    const text = bytes.toString('latin1');
    if (UNREDACTED_PARAM.test(text) || USERINFO_VALUE.test(text)) return true;
    return this.known.some(
      (secret) => bytes.includes(Buffer.from(secret, 'utf8')) || formsOf(secret).some((f) => text.includes(f)),
    );
  }

  private scrubText(text: string): string {
    let out = text.replace(SECRET_PARAM, `$1${REDACTED}`).replace(USERINFO, `$1${REDACTED}@`);
    for (const secret of this.secrets) for (const form of formsOf(secret)) out = out.split(form).join(REDACTED);
    return out;
  }

  /**
   * Where a secret or a signature still stands in the archive: in its text, in any spelling of secret-forms.ts or
   * base64 at any offset, and in every decoded view of the bodies (their JSON strings, form values and
   * percent-decoded text, an answer's base64 decoded). Each finding names the entry.
   */
  leaks(entries: readonly HarEntry[]): string[] {
    const searched = this.known.map((secret) => ({ secret, forms: [...formsOf(secret), ...base64Forms(secret)] }));
    const found: string[] = [];
    entries.forEach((entry, index) => {
      const views = viewsOf(entry);
      const at = `entry ${index} (${entry.request.method} ${entry.request.url})`;
      for (const { secret, forms } of searched) {
        if (views.some((view) => forms.some((form) => view.includes(form)))) {
          found.push(`${at} holds the secret ${secret.length > 8 ? `${secret.slice(0, 3)}...` : '***'}`);
        }
      }
      if (views.some((view) => UNREDACTED_PARAM.test(view))) found.push(`${at} holds a URL signature or token`);
    });
    return found;
  }
}

/** An entry's text and the decoded views of its bodies and URL (an answer kept as base64, decoded). */
function viewsOf(entry: HarEntry): string[] {
  const { postData } = entry.request;
  const { content } = entry.response;
  const answer =
    content.text === undefined
      ? []
      : content.encoding === 'base64'
        ? [Buffer.from(content.text, 'base64').toString('latin1')]
        : decodedViews(content.text);
  return [
    JSON.stringify(entry),
    ...decodedViews(entry.request.url),
    ...(postData?.text === undefined ? [] : decodedViews(postData.text)),
    ...answer,
  ];
}
