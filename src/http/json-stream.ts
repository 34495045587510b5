/**
 * A JSON answer written piece by piece from an async generator of text. The stream pulls the next
 * piece only when the socket has taken the last one, so a slow reader holds one piece in memory,
 * not the document; a reader that goes away stops the generator.
 */
export function jsonStreamResponse(pieces: AsyncGenerator<string>): Response {
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await pieces.next();
      if (done) controller.close();
      else controller.enqueue(Buffer.from(value, 'utf8'));
    },
    async cancel() {
      await pieces.return(undefined);
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
}
