import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GatewayError } from '@signalbox/core';

/** The paths of the page itself: each answers with the same HTML, whose script picks the view. */
export const PAGE_PATHS = ['/', '/login', '/models', '/keys', '/usage', '/balance', '/members', '/audit'] as const;

const ASSETS: Readonly<Record<string, string>> = {
  'panel.js': 'text/javascript; charset=utf-8',
  'panel.css': 'text/css; charset=utf-8',
};

/** Where the build puts the bundle: `dist/ui` beside both `src` (tests) and `dist` (built). */
export const DEFAULT_UI_DIRECTORY = join(__dirname, '..', '..', 'dist', 'ui');

export type UiFiles = {
  /** The page's HTML with its asset links under `base` (the path the panel is mounted at). */
  page: (base: string) => string;
  /** The asset's bytes and content type, or undefined for a name not in the bundle. */
  asset: (name: string) => { body: Buffer; type: string } | undefined;
};

/**
 * The built page and its two assets, read once and kept. A missing build is reported with the
 * command that makes it rather than as a 404.
 */
export function loadUiFiles(directory: string): UiFiles {
  const cache = new Map<string, Buffer>();
  const read = (name: string) => {
    let body = cache.get(name);
    if (body === undefined) {
      try {
        body = readFileSync(join(directory, name));
      } catch {
        throw new GatewayError({
          code: 'INTERNAL_ERROR',
          message: `The panel's ${name} is not built in ${directory}; run \`pnpm run build\`.`,
        });
      }
      cache.set(name, body);
    }
    return body;
  };
  return {
    page: base => read('index.html').toString('utf8').replaceAll('{{base}}', escapeAttribute(base)),
    asset: name => {
      const type = ASSETS[name];
      return type === undefined ? undefined : { body: read(name), type };
    },
  };
}

function escapeAttribute(value: string): string {
  return value.replace(/[&"<>']/g, character => `&#${character.charCodeAt(0)};`);
}
