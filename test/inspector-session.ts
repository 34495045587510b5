import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { launchChromium } from './browser.js';
import { basic } from './helpers.js';

/**
 * What the inspector's browser tests share: a person's session (the inspector opened with a key in the fragment,
 * console errors and requests collected) and a developer's curl beside it. With LABELMOCK_SCREENSHOTS=1 the tests
 * also write the inspector's screenshots (docs/inspector-*.png); CI leaves them alone.
 */

export const KEY = 'test_inspector';
const SCREENSHOTS = process.env.LABELMOCK_SCREENSHOTS === '1';
type Cleanups = (() => Promise<void> | void)[];

/** What a developer's curl does: a POST with the key, outside the browser. */
export async function post(base: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: basic(KEY), 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

export async function get(base: string, path: string): Promise<any> {
  const res = await fetch(`${base}${path}`, { headers: { authorization: basic(KEY) } });
  expect(res.status).toBe(200);
  return res.json();
}

/** The whole page, or only `part` of it (a section a docs page shows). */
export async function screenshot(page: Page, name: string, part?: Locator): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(new URL('../docs/', import.meta.url), { recursive: true });
  const path = new URL(`../docs/inspector-${name}.png`, import.meta.url).pathname;
  await (part ? part.screenshot({ path }) : page.screenshot({ path, fullPage: true }));
}

/** Opens the inspector on `base` with the key in the fragment; collects console errors and requests. */
export async function openInspector(base: string, cleanups: Cleanups) {
  const context = await (await launchChromium(cleanups)).newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  context.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  const answer = await page.goto(`${base}/_mock/ui/#key=${KEY}`);
  expect(answer?.status()).toBe(200);
  await page.locator('#live', { hasText: 'live' }).waitFor();
  return { page, requests, errors };
}
