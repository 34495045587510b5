import type { HarEntry } from '../../domain/har/schema.js';

/**
 * Secrets out of a recording, as each entry is written: credential headers whole, signatures and tokens in
 * URLs' query strings and userinfo, and every string the user names (`--redact TEXT`) or the requests'
 * credentials reveal (an API key echoed in a body), plain, percent-encoded or JSON-escaped, wherever it stands.
 * Each replacement is named in the entry's `_labelmock.redacted`. `leaks` then looks for what survived.
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
const SECRET_PARAM = new RegExp(`([?&](?:${SECRET_PARAMS})=)[^&#"'\\s]*`, 'gi');
const USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s"']+@/gi;

/** The shorter a secret, the likelier it is an ordinary word: such strings are refused as --redact values. */
export const MIN_SECRET_CHARS = 6;

/** The forms a secret takes in a recording's text. */
function formsOf(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  return [...new Set([secret, encodeURIComponent(secret), json])];
}

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
      if (new RegExp(`^(?:${SECRET_PARAMS})$`, 'i').test(param.name)) {
        if (param.value !== REDACTED) where.push(at);
        param.value = REDACTED;
      } else param.value = scrub(param.value, at);
    }
    const post = entry.request.postData;
    if (post?.text !== undefined) post.text = scrub(post.text, 'request.postData.text');
    for (const param of post?.params ?? []) {
      if (param.value !== undefined) param.value = scrub(param.value, `request.postData.params.${param.name}`);
    }
    const content = entry.response.content;
    if (content.text !== undefined && content.encoding !== 'base64') {
      content.text = scrub(content.text, 'response.content.text');
    }
    entry.response.redirectURL = scrub(entry.response.redirectURL, 'response.redirectURL');
    if (where.length > 0) entry._labelmock = { ...entry._labelmock, redacted: [...new Set(where)] };
  }

  private scrubText(text: string): string {
    let out = text.replace(SECRET_PARAM, `$1${REDACTED}`).replace(USERINFO, `$1${REDACTED}@`);
    for (const secret of this.secrets) for (const form of formsOf(secret)) out = out.split(form).join(REDACTED);
    return out;
  }

  /**
   * Where a secret still stands in the archive's text: plain, percent-encoded, JSON-escaped or base64-encoded
   * (a form redaction cannot rewrite without decoding). Each finding names the entry and the form.
   */
  leaks(entries: readonly HarEntry[]): string[] {
    const found: string[] = [];
    entries.forEach((entry, index) => {
      const text = JSON.stringify(entry);
      for (const secret of this.secrets) {
        const forms = [...formsOf(secret), Buffer.from(secret).toString('base64').replace(/=+$/, '')];
        const form = forms.find((f) => text.includes(f));
        if (form !== undefined) {
          const shown = secret.length > 8 ? `${secret.slice(0, 3)}...` : '***';
          found.push(`entry ${index} (${entry.request.method} ${entry.request.url}) holds the secret ${shown}`);
        }
      }
    });
    return found;
  }
}
