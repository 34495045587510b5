import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { type Browser, chromium } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';

/**
 * GET /docs in a real headless Chromium (Debian's package; .ci/run installs it): the reference renders
 * both documents, and every request the page makes stays on this server. The page's CSP would refuse any
 * other host; a refusal is a console error, so "no console errors" catches what "no requests" cannot see.
 */

const CHROMIUM = '/usr/bin/chromium';
// Chromium's own background traffic (updates, sync, field trials) is off: only the page's requests remain.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startServer(): Promise<string> {
  const app = createApp();
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s as Server)) as Server;
  });
  cleanups.push(() => {
    server.closeAllConnections();
    server.close();
    app.dispose();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function launchChromium(): Promise<Browser> {
  // Not a skip: CI installs chromium, so a missing one is a broken setup, not an optional test.
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  cleanups.push(() => browser.close());
  return browser;
}

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
