import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { type Browser, chromium } from 'playwright-core';
import type { MockApp } from '../src/app.js';

/** What a browser test needs: the app on a real port, and Debian's Chromium (.ci/run installs it). */

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

type Cleanups = (() => Promise<void> | void)[];

/** Serves `app` on a free port of 127.0.0.1 until the test's cleanups run; answers its base URL. */
export async function serveApp(app: MockApp, cleanups: Cleanups): Promise<string> {
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

export async function launchChromium(cleanups: Cleanups): Promise<Browser> {
  // Not a skip: CI installs chromium, so a missing one is a broken setup, not an optional test.
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  cleanups.push(() => browser.close());
  return browser;
}
