import { crc32, deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { fixture } from '../src/fixtures.js';
import { serveApp } from './browser.js';
import { basic, imageRequest } from './helpers.js';
import { get, KEY, openInspector, post, screenshot } from './inspector-session.js';

/**
 * The task page's pictures in Chromium: each kind of drawing from a synthesized or given response (shapes, a
 * video's frames, a lidar sequence from above, NER spans, a response as it is typed, an uploaded attachment
 * under its shapes), and the timeline of a task whose callback failed, was retried, and which was redone.
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Callbacks answered in process by `answers` in turn (then 200): no socket, journaled as for a receiver. */
function startServer(answers: number[] = []): Promise<string> {
  const fetch = async () => new Response('ok', { status: answers.shift() ?? 200 });
  return serveApp(createApp({ fetch }), cleanups);
}

/** A task of `type` from its committed fixture, completed with its synthesized response; answers it. */
async function completedTask(base: string, type: string, overrides = {}): Promise<any> {
  const body = { ...fixture<Record<string, unknown>>(`tasks/${type}.create.json`), callback_url: undefined };
  const { task_id } = await post(base, `/v1/task/${type}`, { ...body, ...overrides });
  return post(base, `/_mock/tasks/${task_id}/complete`);
}

const drawingOf = (page: Page) => page.locator('section', { has: page.getByRole('heading', { name: /^Drawing/ }) });

async function openTask(page: Page, base: string, taskId: string, status: string): Promise<void> {
  await page.goto(`${base}/_mock/ui/#/task/${taskId}`);
  await page.getByRole('heading', { name: `Task ${taskId} ${status}` }).waitFor();
}

/** A PNG of one colour (the attachment an upload gives a task). */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const framed = Buffer.alloc(body.length + 8);
    framed.writeUInt32BE(data.length, 0);
    body.copy(framed, 4);
    framed.writeUInt32BE(crc32(body), body.length + 4);
    return framed;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x9c)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

describe('inspector drawings in Chromium', () => {
  it("a video's frames move with the slider; a lidar sequence is drawn from above, frame by frame", async () => {
    const base = await startServer();
    const { page, errors, requests } = await openInspector(base, cleanups);
    const video = await completedTask(base, 'videoannotation');
    await openTask(page, base, video.task_id, 'completed');
    const drawn = drawingOf(page);
    const frames = video.response.annotations;
    await expect(drawn.locator('svg.drawing [data-kind]').count()).resolves.toBe(frames[0].annotations.length);
    const last = frames.length - 1;
    await drawn.locator('.frame-slider').fill(String(last));
    await drawn.locator('.frame-caption', { hasText: `frame ${last} (${last + 1} of ${frames.length})` }).waitFor();
    // The box of the last frame sits where that frame's response puts it.
    const box = frames[last].annotations.find((a: { type: string }) => a.type === 'box');
    const rect = drawn.locator(`svg.drawing rect[data-label="${box.label}"]`);
    await expect(rect.getAttribute('x')).resolves.toBe(String(box.left));
    await screenshot(page, 'video', drawn);

    const lidar = await completedTask(base, 'lidarannotation');
    // Its results come as a file: the page reads it, then draws.
    // The file is the list of frames.
    const results = { annotations: await get(base, new URL(lidar.response.annotations.url).pathname) };
    await openTask(page, base, lidar.task_id, 'completed');
    const sequence = drawingOf(page);
    await expect(sequence.locator('svg.drawing [data-kind=cuboid]').count()).resolves.toBe(
      results.annotations[0].cuboids.length,
    );
    const lastFrame = results.annotations.length - 1;
    await sequence.locator('.frame-slider').fill(String(lastFrame));
    await sequence
      .locator('.frame-caption', { hasText: `frame ${results.annotations[lastFrame].frame_index} (` })
      .waitFor();
    await expect(sequence.locator('svg.drawing [data-kind=sensor]').count()).resolves.toBe(1);
    await screenshot(page, 'lidar', sequence);
    expect(requests.filter((url) => new URL(url).origin !== base)).toEqual([]);
    expect(errors).toEqual([]);
  }, 60_000);

  it('NER spans are marked in the text, with their relationships', async () => {
    const base = await startServer();
    const { page, errors } = await openInspector(base, cleanups);
    const ner = await completedTask(base, 'namedentityrecognition');
    await openTask(page, base, ner.task_id, 'completed');
    const drawn = drawingOf(page);
    for (const span of ner.response.annotations) {
      const mark = drawn.locator(`mark[data-label="${span.label}"]`, { hasText: span.text });
      await expect(mark.count(), span.text).resolves.toBeGreaterThan(0);
    }
    await expect(drawn.locator('.marked-text').textContent()).resolves.toBe(ner.params.text);
    await expect(drawn.locator('li', { hasText: '—' }).count()).resolves.toBe(ner.response.relationships.length);
    await screenshot(page, 'ner', drawn);
    expect(errors).toEqual([]);
  }, 60_000);

  it('a hypothesis is drawn dashed before any response; a typed response is drawn before it is sent', async () => {
    const base = await startServer();
    const { page, errors } = await openInspector(base, cleanups);
    const car = { type: 'box', label: 'car', left: 100, top: 120, width: 200, height: 90 };
    const { task_id } = await post(
      base,
      '/v1/task/imageannotation',
      imageRequest({ hypothesis: { annotations: [car] } }),
    );
    await openTask(page, base, task_id, 'pending');
    const drawn = drawingOf(page);
    await expect(drawn.getByRole('heading').textContent()).resolves.toBe('Drawing (no response yet)');
    await expect(drawn.locator('[data-layer=hypothesis] rect[stroke-dasharray]').getAttribute('x')).resolves.toBe(
      '100',
    );

    await page.locator('#response').fill('{"annotations": [');
    await page.locator('#preview', { hasText: 'waits for the response to be JSON' }).waitFor();
    const typed = {
      annotations: [
        { ...car, uuid: 'b1', left: 130 },
        { ...car, uuid: 'b2', label: 'bus' },
      ],
    };
    await page.locator('#response').fill(JSON.stringify(typed));
    const preview = page.locator('#preview');
    await preview.locator('svg [data-layer=response] [data-kind=box]').nth(1).waitFor();
    await expect(preview.locator('[data-layer=response] rect').first().getAttribute('x')).resolves.toBe('130');
    // Not sent: the task is still pending, with no response.
    expect((await get(base, `/v1/task/${task_id}`)).status).toBe('pending');
    expect(errors).toEqual([]);
  }, 60_000);

  it('an uploaded image attachment is drawn under the shapes at its own size', async () => {
    const base = await startServer();
    const { page, errors } = await openInspector(base, cleanups);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png(320, 200))], { type: 'image/png' }), 'street.png');
    const uploaded = await fetch(`${base}/v1/files/upload`, {
      method: 'POST',
      headers: { authorization: basic(KEY) },
      body: form,
    });
    expect(uploaded.status).toBe(200);
    const { attachment_url } = (await uploaded.json()) as { attachment_url: string };
    const { task_id } = await post(base, '/v1/task/imageannotation', imageRequest({ attachment: attachment_url }));
    const box = { type: 'box', uuid: 'b1', label: 'car', left: 20, top: 30, width: 100, height: 60 };
    await post(base, `/_mock/tasks/${task_id}/complete`, { response: { annotations: [box] } });
    await openTask(page, base, task_id, 'completed');
    const drawn = drawingOf(page);
    await drawn.getByText('Drawn over the attachment (320 × 200).').waitFor();
    await expect(drawn.locator('svg.drawing').getAttribute('viewBox')).resolves.toBe('0 0 320 200');
    await expect(drawn.locator('svg.drawing image').getAttribute('href')).resolves.toMatch(/^blob:/);
    expect(errors).toEqual([]);
  }, 60_000);

  it('the timeline shows a failed-then-retried callback and a redo in order, updated live', async () => {
    const base = await startServer([500]);
    const { page, errors } = await openInspector(base, cleanups);
    // Three attempts over a day: the retry waits hours for the clock.
    const settings = await fetch(`${base}/_mock/settings`, {
      method: 'PATCH',
      headers: { authorization: basic(KEY), 'content-type': 'application/json' },
      body: JSON.stringify({ completion: { mode: 'manual' }, callbacks: { max_attempts: 3 } }),
    });
    expect(settings.status).toBe(200);
    const { task_id } = await post(
      base,
      '/v1/task/imageannotation',
      imageRequest({ callback_url: 'https://app.example/cb' }),
    );
    await openTask(page, base, task_id, 'pending');
    await post(base, `/_mock/tasks/${task_id}/complete`);
    const timeline = page.locator('#timeline');
    await timeline.locator('li.callback_attempt', { hasText: 'Attempt 1: 500' }).waitFor();
    await expect(timeline.locator('li.callback_attempt').textContent()).resolves.toMatch(/retry due \+\d+ h/);
    await post(base, '/_mock/clock/advance', { ms: 24 * 60 * 60 * 1000 });
    await timeline.locator('li.callback_attempt', { hasText: 'Attempt 2: 200' }).waitFor();
    await page.getByRole('button', { name: 'Redo' }).click();
    await timeline.locator('li.redone').waitFor();
    const kinds = await timeline.locator('li').evaluateAll((items) => items.map((li) => li.getAttribute('data-kind')));
    // What follows the redo (the callback recalling the response) may still be on its way.
    expect(kinds.slice(0, 7)).toEqual([
      'created',
      'request',
      'completed',
      'callback_queued',
      'callback_attempt',
      'callback_attempt',
      'redone',
    ]);
    const attempts = await timeline.locator('li.callback_attempt').allTextContents();
    expect(attempts.slice(0, 2)).toEqual([
      expect.stringMatching(/Attempt 1: 500 in \d+ ms, retried\./),
      expect.stringMatching(/Attempt 2: 200 in \d+ ms, delivered\./),
    ]);
    await screenshot(page, 'timeline', page.locator('section', { has: timeline }));
    expect(errors).toEqual([]);
  }, 60_000);
});
