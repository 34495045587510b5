/** One HTTP attempt of a callback delivery, and how its outcome is told in the journal. */

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Read at call time, so a fetch replaced after the app was built (a test's network guard) is used. */
export const globalFetch: FetchLike = (input, init) => globalThis.fetch(input, init);

/** A receiver's answer body is read and dropped; past this many bytes the rest is not read at all. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface SendOutcome {
  status_code?: number;
  error?: string;
}

/**
 * POSTs the body and waits for the answer, at most `timeoutMs` for the whole exchange (answer body
 * included). Never throws: a refused connection, a timeout or a bad URL is an outcome.
 */
export async function sendCallback(
  fetch: FetchLike,
  target: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<SendOutcome> {
  try {
    const signal = AbortSignal.timeout(timeoutMs);
    const res = await fetch(target, { method: 'POST', headers, body, signal, redirect: 'manual' });
    await discardAnswer(res);
    return { status_code: res.status };
  } catch (err) {
    return { error: describeFailure(err, timeoutMs) };
  }
}

/**
 * Reading the answer to its end lets the pooled connection serve the next delivery; an endless
 * answer is cut off instead of being held in memory.
 */
async function discardAnswer(res: Response): Promise<void> {
  const reader = res.body?.getReader();
  if (!reader) return;
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      bytes += value.byteLength;
      if (bytes > MAX_ANSWER_BYTES) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The status already came back: a broken or timed-out answer body does not change the outcome.
  }
}

/** fetch hides the reason in `cause` (ECONNREFUSED, a bad port, ...): surface it in the journal. */
function describeFailure(err: unknown, timeoutMs: number): string {
  if ((err as Error).name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return [cause?.code, cause?.message ?? (err as Error).message].filter(Boolean).join(': ');
}
