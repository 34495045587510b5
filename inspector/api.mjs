// The inspector's calls: the API's own auth (HTTP Basic, key as user name, empty password), the key from
// the URL fragment or the key field, kept in localStorage. The fragment never reaches the server.

const STORAGE = 'labelmock.key';

/**
 * Moves `#key=...` from the address into storage, so the key is neither in history nor in a shared link;
 * answers whether the key in use changed.
 */
export function takeKeyFromFragment() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const given = fragment.get('key');
  if (given === null) return false;
  history.replaceState(null, '', `${location.pathname}#/tasks`);
  // A link may come from anyone: switching away from the key in use is the person's choice, not the link's.
  const current = getKey();
  if (current === given.trim()) return false;
  if (current !== '' && !confirm(`Switch the inspector from key ${current} to ${given}?`)) return false;
  setKey(given);
  return true;
}

export const getKey = () => localStorage.getItem(STORAGE) ?? '';
export const setKey = (key) => localStorage.setItem(STORAGE, key.trim());

function authorization() {
  // Keys are ASCII by the service's rules; btoa throws on anything else, and that error is shown.
  return `Basic ${btoa(`${getKey()}:`)}`;
}

/**
 * Marks the inspector's own requests, so the journal pages can leave them out. The value is this tab's own
 * random token: a client that sends the header with any other value stays in view.
 */
const OWN_HEADER = 'x-labelmock-inspector';
// getRandomValues, not randomUUID: the latter needs a secure context, which a LAN address over http is not.
const OWN_TOKEN =
  sessionStorage.getItem(OWN_HEADER) ??
  Array.from(crypto.getRandomValues(new Uint32Array(4)), (n) => n.toString(36)).join('');
sessionStorage.setItem(OWN_HEADER, OWN_TOKEN);
export const isOwn = (request) => request.headers[OWN_HEADER] === OWN_TOKEN;
/** Every request the inspector makes: the key, and the mark of its own. */
const ownHeaders = () => ({ authorization: authorization(), [OWN_HEADER]: OWN_TOKEN });

/** Calls a JSON route; a non-2xx answer throws an Error with the service's message. */
export async function api(method, path, body) {
  const headers = ownHeaders();
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let data = text;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON (a dropped or faulted answer): keep the text for the message.
  }
  if (res.status === 401) {
    throw new Error(`${res.status}: ${data?.error ?? 'Unauthorized'}. Enter a key that works in the Key field above.`);
  }
  if (!res.ok) throw new Error(`${res.status}: ${data?.error ?? (text || res.statusText)}`);
  return data;
}

/** Reads a route's bytes (an uploaded file) as a Blob; a non-2xx answer throws. */
export async function apiBlob(path) {
  const res = await fetch(path, { headers: ownHeaders() });
  if (!res.ok) throw new Error(`${res.status}: ${res.statusText}`);
  return res.blob();
}

/** `?a=1&b=2` from an object, leaving out empty values. */
export function query(params) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== '' && value !== undefined) search.set(name, value);
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * Reads GET /_mock/events with fetch (EventSource cannot send the key) and calls `onEvent` with each
 * event's data; reconnects after a pause until `signal` aborts. `onState` hears 'live' or 'offline'.
 */
export async function streamEvents(onEvent, onState, signal) {
  while (!signal.aborted) {
    try {
      const res = await fetch('/_mock/events', { headers: ownHeaders(), signal });
      if (!res.ok || !res.body) throw new Error(`events: ${res.status}`);
      onState('live');
      await readEvents(res.body, onEvent);
    } catch {
      // Offline, a 401 or a full subscriber list: shown, then tried again.
    }
    if (signal.aborted) return;
    onState('offline');
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

async function readEvents(body, onEvent) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const data = buffer
        .slice(0, end)
        .split('\n')
        .find((line) => line.startsWith('data: '));
      buffer = buffer.slice(end + 2);
      if (data) onEvent(JSON.parse(data.slice(6)));
      end = buffer.indexOf('\n\n');
    }
  }
}
