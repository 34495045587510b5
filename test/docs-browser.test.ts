import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { launchChromium as launchBrowser, serveApp } from './browser.js';

/**
 * GET /docs in a real headless Chromium (Debian's package; .ci/run installs it): the reference renders
 * both documents, and every request the page makes stays on this server. The page's CSP would refuse any
 * other host; a refusal is a console error, so "no console errors" catches what "no requests" cannot see.
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const startServer = () => serveApp(createApp(), cleanups);

const launchChromium = () => launchBrowser(cleanups);

describe('docs page in Chromium', () => {
  it('GET /docs renders the interface and the control plane, loading everything from this server', async () => {
    const base = await startServer();
    const context = await (await launchChromium()).newContext();
    const page = await context.newPage();
    const requests: string[] = [];
    const errors: string[] = [];
    // Context-wide: requests of workers and popups count too.
    context.on('request', (request) => requests.push(request.url()));
    context.on('requestfailed', (request) => errors.push(`failed: ${request.url()} ${request.failure()?.errorText}`));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    page.on('pageerror', (error) => errors.push(error.message));

    const answer = await page.goto(`${base}/docs`);
    expect(answer?.status()).toBe(200);
    await page.getByText('Retrieve a task', { exact: true }).first().waitFor({ state: 'visible' });

    // The document selector at the top of the sidebar lists both documents.
    await page.getByRole('button', { name: 'Interface (v1)' }).click();
    await page.getByRole('option', { name: 'Control plane (/_mock)' }).click();
    await page
      .getByText('Complete a pending task with a given', { exact: false })
      .first()
      .waitFor({ state: 'visible' });

    expect(requests.filter((url) => new URL(url).origin !== base)).toEqual([]);
    expect(requests.map((url) => new URL(url).pathname)).toEqual(
      expect.arrayContaining(['/docs', '/docs/assets/scalar.js', '/openapi.json', '/_mock/openapi.json']),
    );
    expect(errors).toEqual([]);
  }, 60_000);
});
