/**
 * Tests never reach beyond this machine: fixtures carry callback URLs such as
 * https://example.com/callback, and completing their tasks would otherwise send real requests.
 * Any fetch to a host other than loopback fails here, and the callback journal records why.
 */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const realFetch = globalThis.fetch;

globalThis.fetch = (input: string | URL | Request, init?: RequestInit) => {
  const url = new URL(input instanceof Request ? input.url : input.toString());
  if (!LOOPBACK.has(url.hostname))
    return Promise.reject(new TypeError(`network guard: ${url.hostname} is not loopback`));
  return realFetch(input, init);
};
