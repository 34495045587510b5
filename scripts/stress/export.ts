import { auth, call, fmtBytes, fmtLatency, fmtMs, sampleLatency } from './http.js';
import type { Ctx } from './report.js';

const FILE_BYTES = 79_000_000;

async function uploadFile(base: string, key: string, bytes: Uint8Array<ArrayBuffer>, name: string) {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  form.append('project_name', 'stress');
  const started = performance.now();
  try {
    const res = await fetch(`${base}/v1/files/upload`, {
      method: 'POST',
      headers: { authorization: auth(key) },
      body: form,
      signal: AbortSignal.timeout(120_000),
    });
    const text = await res.text();
    return { status: res.status, ms: performance.now() - started, text };
  } catch (err) {
    return { status: 0, ms: performance.now() - started, text: String((err as Error).message) };
  }
}

/** Reads GET /_mock/state to its end without keeping it: bytes and time. */
async function readExport(base: string, key: string) {
  const started = performance.now();
  const res = await fetch(`${base}/_mock/state`, {
    headers: { authorization: auth(key) },
    signal: AbortSignal.timeout(300_000),
  });
  let bytes = 0;
  for await (const chunk of res.body ?? []) bytes += (chunk as Uint8Array).byteLength;
  return { status: res.status, bytes, ms: performance.now() - started };
}

/** Item 4 (export) and item 6 (file bytes): a 79 MB upload, the export that carries it, more uploads. */
export async function largeExport(ctx: Ctx): Promise<void> {
  const { base } = ctx.server;
  const key = 'test_stress_export';
  await call(base, key, 'POST', '/v1/projects', { type: 'imageannotation', name: 'stress' });
  const bytes = new Uint8Array(FILE_BYTES).fill(7);
  await ctx.server.probe();
  const uploaded = await sampleLatency(base, () => uploadFile(base, key, bytes, 'big-0.bin'));
  const uploadLoop = (await ctx.server.probe()).loopMaxMs;
  ctx.row(
    '4',
    `upload of a ${fmtBytes(FILE_BYTES)} file`,
    `${uploaded.result.status} in ${fmtMs(uploaded.result.ms)}; ` +
      `loop stall ${fmtMs(uploadLoop)}; ${fmtLatency(uploaded.latency)}`,
  );

  const before = await ctx.server.probe();
  const exported = await sampleLatency(base, () => readExport(base, key));
  const after = await ctx.server.probe();
  ctx.row(
    '4',
    `GET /_mock/state with that file (${fmtBytes(exported.result.bytes)})`,
    `${exported.result.status} in ${fmtMs(exported.result.ms)}; ` +
      `loop stall ${fmtMs(after.loopMaxMs)}; ${fmtLatency(exported.latency)}; ` +
      `rss ${fmtBytes(before.rss)} -> ${fmtBytes(after.rss)}`,
  );

  const more = [];
  for (let i = 1; i <= 3; i += 1) {
    const answer = await uploadFile(base, key, bytes, `big-${i}.bin`);
    more.push(answer.status === 200 ? '200' : `${answer.status} ${answer.text.slice(0, 140)}`);
    if (answer.status !== 200) break;
  }
  const held = await ctx.server.probe();
  ctx.row(
    '6',
    `more ${fmtBytes(FILE_BYTES)} uploads to the same tenant`,
    `${more.join('; ')}; server rss ${fmtBytes(held.rss)}`,
  );
}
