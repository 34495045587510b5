// The account a request's key names, for nginx's consistent hash (njs: js_set $labelmock_account).
// It reads the key as labelmock does (src/http/auth.ts extractKey): the Basic user name, the Bearer token, or the
// whole header when it has no scheme; then the account an open-mode key names, prefixed shapes first
// (test_x, live_x), then suffixed ones (x|test, x|live). Any other key (a --keys file's) is hashed as it is.

const PREFIXED = /^(test|live)_([A-Za-z0-9_-]{1,128})$/;
const SUFFIXED = /^([A-Za-z0-9_-]{1,128})\|(test|live)$/;

function keyOf(header) {
  const trimmed = header.trim();
  const parts = trimmed.split(/\s+/);
  const scheme = parts[0];
  const value = parts.slice(1).join(' ');
  if (/^basic$/i.test(scheme) && value) {
    const decoded = Buffer.from(value, 'base64').toString();
    const colon = decoded.indexOf(':');
    return colon === -1 ? decoded : decoded.slice(0, colon);
  }
  if (/^bearer$/i.test(scheme) && value) return value;
  return parts.length === 1 ? trimmed : '';
}

function account(r) {
  const key = keyOf(r.headersIn.Authorization || '');
  const prefixed = PREFIXED.exec(key);
  if (prefixed) return prefixed[2];
  const suffixed = SUFFIXED.exec(key);
  return suffixed ? suffixed[1] : key;
}

export default { account };
