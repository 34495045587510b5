/**
 * `res` with `headers` set. A streamed or fetched answer may carry immutable headers: it is then copied once
 * (same body, status and headers) and the copy answered, so the caller uses what comes back.
 */
export function withHeaders(res: Response, headers: Record<string, string>): Response {
  try {
    setAll(res.headers, headers);
    return res;
  } catch {
    const copy = new Response(res.body, res);
    setAll(copy.headers, headers);
    return copy;
  }
}

function setAll(target: Headers, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) target.set(name, value);
}
