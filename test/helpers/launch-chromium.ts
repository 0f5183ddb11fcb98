import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

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

/** Headless Chromium with a fresh profile (deleted on close) and one page, in US English and UTC unless `region` says otherwise. */
export async function launchChromium(region: BrowserRegion = { locale: 'en-US', timezoneId: 'UTC' }): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'signalbox-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 860 },
    acceptDownloads: true,
    ...region,
  });
  const page = context.pages()[0] ?? (await context.newPage());
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
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
