import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { launchChromium as launchBrowser, serveApp } from './browser.js';
import { basic, imageRequest } from './helpers.js';
import { get, KEY, openInspector as openSession, post, screenshot } from './inspector-session.js';

/**
 * GET /_mock/ui in a real headless Chromium (Debian's package; .ci/run installs it): a person opens the
 * inspector with a key in the fragment, creates a task with curl (here: fetch), watches it appear and
 * drives it by clicking (test/inspector-session.ts; the drawings of each task type: inspector-drawing-browser).
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// Callbacks answered in process: the attempt is journaled as for a real receiver, with no socket.
const startServer = () => serveApp(createApp({ fetch: async () => new Response('ok', { status: 200 }) }), cleanups);

const launchChromium = () => launchBrowser(cleanups);
const openInspector = (base: string) => openSession(base, cleanups);

async function createTask(base: string, overrides: Record<string, unknown>): Promise<string> {
  return (await post(base, '/v1/task/imageannotation', imageRequest(overrides))).task_id;
}

/** Projects, batches, callbacks, clock and settings, after one task of batch kitchens-1 completed. */
async function otherPages(page: Page, base: string): Promise<void> {
  await page.getByRole('link', { name: 'Batches' }).click();
  await page.locator('#batches td', { hasText: '1/1 done' }).waitFor();
  // v2's face: the batch's id and a status v1 has no word for (paused through v2).
  await post(base, '/v2/batch', { name: 'kitchens-2', project_name: 'kitchens' });
  await post(base, '/v2/batch/pause', { batch_name: 'kitchens-2' });
  await page.getByRole('link', { name: 'Projects' }).click();
  await page.getByRole('link', { name: 'Batches' }).click();
  const paused = page.locator('#batches tr', { hasText: 'kitchens-2' });
  await paused.locator('.badge', { hasText: 'paused' }).waitFor();
  await expect(paused.locator('code').textContent()).resolves.toMatch(/^[0-9a-f]{24}$/);
  await screenshot(page, 'batches');
  await page.getByRole('link', { name: 'Projects' }).click();
  await page.getByText('version 0', { exact: false }).waitFor();
  await screenshot(page, 'projects');
  await page.getByRole('link', { name: 'Callbacks' }).click();
  await page.locator('#callbacks .delivery', { hasText: 'https://app.example/callback' }).waitFor();
  await screenshot(page, 'callbacks');
  await page.getByRole('link', { name: 'Clock & settings' }).click();
  await page.getByRole('button', { name: '+1 hour' }).click();
  await page.getByText('(offset 3600000 ms)').waitFor();
  // The clock reads as every other time on the pages: local time, the ISO text as its tooltip.
  const now = page.locator('section', { hasText: 'Virtual clock' }).locator('time[datetime][title]');
  await expect(now.count()).resolves.toBe(1);
  await page.locator('#mode').selectOption('immediate');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('(offset 3600000 ms)').waitFor();
  await expect(page.locator('#mode').inputValue()).resolves.toBe('immediate');
  // Every mode the server has, `reads` with its count: a tenant in it shows it, and Save keeps it.
  await page.locator('#mode').selectOption('reads');
  await page.locator('#reads').fill('2');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect
    .poll(async () => (await get(base, '/_mock/settings')).completion)
    .toMatchObject({ mode: 'reads', reads: 2 });
  await page.getByRole('link', { name: 'Projects' }).click();
  await page.getByRole('link', { name: 'Clock & settings' }).click();
  await page.getByText('(offset 3600000 ms)').waitFor();
  await expect(page.locator('#mode').inputValue()).resolves.toBe('reads');
  await expect(page.locator('#reads').inputValue()).resolves.toBe('2');
  await screenshot(page, 'settings');
}

describe('inspector in Chromium', () => {
  it('GET /_mock/ui shows a created task live, completes it by a click and lists its callback attempt', async () => {
    const base = await startServer();
    const { page, requests, errors } = await openInspector(base);
    // The fragment's key went to storage and out of the address bar.
    expect(new URL(page.url()).hash).toBe('#/tasks');

    // No double quotes: the page shows it inside JSON, which would escape them.
    await page.locator('#task-list', { hasText: 'No tasks match' }).waitFor();
    await post(base, '/v1/projects', { type: 'imageannotation', name: 'kitchens', params: { instruction: 'Boxes.' } });
    await post(base, '/v1/batches', { project: 'kitchens', name: 'kitchens-1' });
    const hostile = '<img src=x onerror=window.__pwned=1>';
    const taskId = await createTask(base, {
      project: 'kitchens',
      batch: 'kitchens-1',
      callback_url: 'https://app.example/callback',
      metadata: { note: hostile },
    });
    await page.locator('#task-list').getByRole('link', { name: taskId }).waitFor();
    await screenshot(page, 'tasks');

    await page.getByRole('link', { name: taskId }).click();
    await page.getByRole('heading', { name: `Task ${taskId} pending` }).waitFor();
    // Metadata is user data: shown as text, never as markup.
    const metadata = page.locator('section', { has: page.getByRole('heading', { name: 'Metadata' }) });
    await expect(metadata.locator('pre').textContent()).resolves.toContain(hostile);
    await expect(page.locator('#task img').count()).resolves.toBe(0);

    await page.getByRole('button', { name: 'Complete', exact: true }).click();
    await page.getByRole('heading', { name: `Task ${taskId} completed` }).waitFor();
    // The synthesized response, drawn: one shape per annotation, and a legend per label.
    const response = (await get(base, `/v1/task/${taskId}`)).response;
    const drawn = page.locator('section', { has: page.getByRole('heading', { name: 'Drawing' }) });
    await expect(drawn.locator('svg [data-kind]').count()).resolves.toBe(response.annotations.length);
    await expect(drawn.locator('.legend li').count()).resolves.toBe(
      new Set(response.annotations.map((a: { label: string }) => a.label)).size,
    );
    const attempts = page.locator('.delivery', { hasText: 'https://app.example/callback' });
    await attempts.locator('td', { hasText: /^200$/ }).waitFor();
    await expect(attempts.locator('.badge', { hasText: 'succeeded' }).count()).resolves.toBe(1);
    // The requests that touched it: the developer's creation, not the inspector's own reads.
    await page.locator('#task summary', { hasText: 'POST /v1/task/imageannotation' }).waitFor();
    await expect(page.locator('#task summary', { hasText: `GET /v1/task/${taskId}` }).count()).resolves.toBe(0);
    await screenshot(page, 'task');
    await otherPages(page, base);
    await page.goto(`${base}/_mock/ui/#/task/${taskId}`);

    await page.getByRole('button', { name: 'Redo' }).click();
    await page.getByRole('heading', { name: `Task ${taskId} pending` }).waitFor();
    await page.locator('#fail-error').fill('attachment unreadable');
    await page.getByRole('button', { name: 'Fail' }).click();
    await page.getByRole('heading', { name: `Task ${taskId} error` }).waitFor();
    // A task in error takes no action: none is offered, and the page says why.
    await page.locator('.actions', { hasText: 'An error task takes no more actions.' }).waitFor();
    await expect(page.locator('.actions button').count()).resolves.toBe(0);

    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(requests.filter((url) => new URL(url).origin !== base)).toEqual([]);
    // The key travels in the Authorization header only, never in a URL.
    expect(requests.filter((url) => url.includes(KEY))).toEqual([]);
    expect(errors.filter((text) => !text.includes('the server responded with a status of'))).toEqual([]);
  }, 60_000);

  it('GET /_mock/ui completes a task with an edited response, refusing an invalid one inline', async () => {
    const base = await startServer();
    const { page } = await openInspector(base);
    const taskId = await createTask(base, {});
    await page.goto(`${base}/_mock/ui/#/task/${taskId}`);
    await page.locator('#response').fill('{"annotations": [{"type": "box", "label": "not-a-label"}]}');
    await page.getByRole('button', { name: 'Complete with this response' }).click();
    await expect(page.locator('#action-error [role=alert]').textContent()).resolves.toMatch(/^400: /);
    await page.getByRole('heading', { name: `Task ${taskId} pending` }).waitFor();

    const response = {
      annotations: [{ type: 'box', uuid: 'b1', label: 'car', left: 1, top: 2, width: 30, height: 40 }],
    };
    await page.locator('#response').fill(JSON.stringify(response));
    await page.getByRole('button', { name: 'Complete with this response' }).click();
    await page.getByRole('heading', { name: `Task ${taskId} completed` }).waitFor();

    await page.locator('#audit-comments').fill('looks right');
    await page.getByRole('button', { name: 'Audit' }).click();
    const audits = page.locator('section', { has: page.getByRole('heading', { name: 'Audits' }) });
    await audits.locator('pre', { hasText: '"audit_source": "reviewer"' }).waitFor();
    // A completed task is offered what the mock allows it (redo, audit), not complete, fail or cancel.
    const offered = await page.locator('.actions button').allTextContents();
    expect(offered).toEqual(['Redo', 'Audit']);
  }, 60_000);

  it('GET /_mock/ui keeps the page a person moved to when the previous page finishes loading late', async () => {
    const base = await startServer();
    const { page } = await openInspector(base);
    // Hold the settings page's clock read until the person has already moved on to Projects.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/_mock/clock', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('link', { name: 'Clock & settings' }).click();
    // While its data is held, the page says it is loading rather than showing an empty page.
    await page.getByRole('status').filter({ hasText: 'Loading…' }).waitFor();
    await page.getByRole('link', { name: 'Projects' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    // The left page's visit ends (its late data rendered off screen) with an event the test waits on.
    await page.evaluate(() => {
      const settled = new Promise((resolve) => {
        document.addEventListener('inspector:settled', (event) => {
          const { detail } = event as CustomEvent<{ page: string; onScreen: boolean }>;
          if (detail.page === 'tenant') resolve(detail);
        });
      });
      Object.assign(window, { tenantSettled: settled });
    });
    release();
    const settled = await page.evaluate(() => (window as unknown as { tenantSettled: Promise<unknown> }).tenantSettled);
    expect(settled).toEqual({ page: 'tenant', onScreen: false });
    await expect(page.getByRole('heading', { name: 'Clock & settings' }).count()).resolves.toBe(0);
    await expect(page.getByRole('heading', { name: 'Projects' }).count()).resolves.toBe(1);
  }, 60_000);

  it('GET /_mock/ui lists the request journal, and adds and removes a fault rule', async () => {
    const base = await startServer();
    const { page } = await openInspector(base);
    await createTask(base, {});
    await page.getByRole('link', { name: 'Requests' }).click();
    await page.locator('#requests summary', { hasText: 'POST /v1/task/imageannotation' }).waitFor();
    // The inspector's own reads are left out unless asked for.
    await expect(page.locator('#requests summary', { hasText: 'GET /v1/tasks' }).count()).resolves.toBe(0);
    await screenshot(page, 'requests');

    await page.getByRole('link', { name: 'Faults' }).click();
    await page.locator('#fault-form input[name=path]').fill('/v1/tasks');
    await page.locator('#fault-form input[name=status]').fill('503');
    await page.locator('#fault-form input[name=times]').fill('2');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.locator('#faults td', { hasText: /^\/v1\/tasks$/ }).waitFor();
    await screenshot(page, 'faults');
    const listed = await fetch(`${base}/_mock/faults`, { headers: { authorization: basic(KEY) } });
    expect(((await listed.json()) as { faults: unknown[] }).faults).toMatchObject([{ path: '/v1/tasks', status: 503 }]);

    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    await page.locator('#faults', { hasText: 'No fault rules.' }).waitFor();
  }, 60_000);

  it('GET /_mock/ui asks before a #key= link switches keys, survives #/__proto__, shows a faked header', async () => {
    const base = await startServer();
    const { page, errors } = await openInspector(base);
    await createTask(base, {});
    // A client that sends the inspector's header (with any value but this tab's token) stays in view.
    const res = await fetch(`${base}/v1/tasks?limit=3`, {
      headers: { authorization: basic(KEY), 'x-labelmock-inspector': '1' },
    });
    expect(res.status).toBe(200);
    await page.getByRole('link', { name: 'Requests' }).click();
    await page.locator('#requests summary', { hasText: 'GET /v1/tasks' }).waitFor();
    await expect(page.locator('#requests summary', { hasText: 'GET /v1/tasks' }).count()).resolves.toBe(1);

    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      return dialog.dismiss();
    });
    await page.goto(`${base}/_mock/ui/#key=test_intruder`);
    await page.locator('#task-list').waitFor();
    expect(asked).toEqual([`Switch the inspector from key ${KEY} to test_intruder?`]);
    await expect(page.locator('#key').inputValue()).resolves.toBe(KEY);
    // Opened anew (a link from another page), with the switch accepted this time.
    const other = await page.context().newPage();
    other.once('dialog', (dialog) => {
      asked.push(dialog.message());
      return dialog.accept();
    });
    await other.goto(`${base}/_mock/ui/#key=test_intruder`);
    await other.locator('#task-list').waitFor();
    expect(asked).toHaveLength(2);
    await expect(other.locator('#key').inputValue()).resolves.toBe('test_intruder');
    await other.close();

    await page.goto(`${base}/_mock/ui/#/__proto__`);
    await page.locator('#task-list').waitFor();
    await page.goto(`${base}/_mock/ui/#/constructor`);
    await page.locator('.page').first().waitFor();
    expect(errors).toEqual([]);
  }, 60_000);

  it('GET /_mock/ui with a refused key says why and how to fix it; no browser sign-in dialog', async () => {
    const base = await startServer();
    const context = await (await launchChromium()).newContext();
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.type());
      return dialog.dismiss();
    });
    await page.goto(`${base}/_mock/ui/#key=prod_acme`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toMatch(/401: Unauthorized: this key is not one labelmock accepts/);
    await expect(alert.textContent()).resolves.toMatch(/Enter a key that works in the Key field above/);
    await expect(page.locator('#live').textContent()).resolves.toBe('events: offline');
    // Fixed from the page itself: the key field, then Use.
    await page.locator('#key').fill(KEY);
    await page.getByRole('button', { name: 'Use' }).click();
    await page.locator('#live', { hasText: 'events: live' }).waitFor();
    await page.locator('#task-list').waitFor();
    expect(dialogs).toEqual([]);
  }, 60_000);
});
