import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser as PlaywrightBrowser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium, which ./scripts/test.sh installs when it is missing. */
export const CHROMIUM_PATH = process.env.SIGNALBOX_CHROMIUM ?? '/usr/bin/chromium';

/** Where the browser tests leave their screenshots (git-ignored). */
export const SCREENSHOTS = join(__dirname, '..', '..', '.test-results', 'screenshots');

/**
 * Flags that keep headless Chromium to itself: no sandbox (containers run as root), no GPU, no
 * QUIC, and none of the background calls (component updates, sync, first-run pages) that would
 * leave the machine; the tests talk only to 127.0.0.1.
 */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type Browser = {
  context: BrowserContext;
  page: Page;
  /**
   * Script errors and console errors the pages printed (a CSP violation is one), for a test to
   * assert none happened; an HTTP error answer the page handles itself is not counted.
   */
  consoleErrors: string[];
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
};

/** The browser's language and time zone: fixed, so what a page formats does not depend on the machine. */
export type BrowserRegion = { locale: string; timezoneId: string };

/**
 * A fresh browser context (its own cookies and storage, closed with it) and one page in the jest
 * worker's headless Chromium, in US English and UTC unless `region` says otherwise.
 */
export async function launchChromium(region: BrowserRegion = { locale: 'en-US', timezoneId: 'UTC' }): Promise<Browser> {
  const browser = await connectToWorkerChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, acceptDownloads: true, ...region });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', message => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      consoleErrors.push(message.text());
  });
  page.on('pageerror', error => consoleErrors.push(String(error)));
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    context,
    page,
    consoleErrors,
    async screenshot(name) {
      const path = join(SCREENSHOTS, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    async close() {
      await context.close();
      await browser.close();
    },
  };
}

/**
 * Connects to the jest worker's Chromium, starting it on the worker's first call: one launch per
 * worker instead of one per test file. The endpoint is kept in a file named after the worker's
 * process, since each test file has modules of its own; the browser ends when the worker does.
 */
async function connectToWorkerChromium(): Promise<PlaywrightBrowser> {
  const endpointFile = join(tmpdir(), `signalbox-chromium-${process.pid}.endpoint`);
  if (existsSync(endpointFile)) {
    try {
      return await chromium.connect(readFileSync(endpointFile, 'utf8'));
    } catch {
      rmSync(endpointFile, { force: true }); // left by a Chromium that did not end cleanly
    }
  }
  return chromium.connect(await startWorkerChromium(endpointFile));
}

/** Starts test/helpers/chromium-server-program.mjs, tied to this process by its stdin, and returns its endpoint. */
async function startWorkerChromium(endpointFile: string): Promise<string> {
  const program = join(__dirname, 'chromium-server-program.mjs');
  const child = spawn(process.execPath, [program, CHROMIUM_PATH, endpointFile, JSON.stringify(FLAGS)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const [endpoint] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(([code]) => Promise.reject(new Error(`Chromium did not start (exit ${code})`)))])) as [string];
  lines.close();
  child.stdout.destroy();
  // Nothing of the program keeps the worker alive; when the worker exits, the program's stdin ends.
  child.unref();
  (child.stdin as Socket).unref();
  return endpoint;
}
