import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * `npm install <tarballs...> <names...>` into `folder`, as a host would, with every registry request
 * going to `registryURL` (a loopback one): no user or global npm settings, no inherited `npm_config_*`
 * (pnpm sets some for the scripts it runs), a cache of its own, no audit or funding requests.
 */
export async function installFromTarballs(options: { folder: string; registryURL: string; tarballs: string[]; names: string[] }): Promise<void> {
  const { folder } = options;
  const settings = join(folder, '..', 'npm-settings');
  mkdirSync(folder, { recursive: true });
  mkdirSync(settings, { recursive: true });
  writeFileSync(join(settings, 'user-npmrc'), '');
  writeFileSync(join(settings, 'global-npmrc'), '');
  const environment = {
    PATH: process.env.PATH ?? '',
    HOME: settings,
    npm_config_userconfig: join(settings, 'user-npmrc'),
    npm_config_globalconfig: join(settings, 'global-npmrc'),
    npm_config_update_notifier: 'false',
  };
  const flags = [
    `--prefix=${folder}`,
    `--registry=${options.registryURL}`,
    `--cache=${join(settings, 'cache')}`,
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
  ];
  try {
    await run('npm', ['install', ...flags, ...options.tarballs, ...options.names], { cwd: folder, env: environment, timeout: 90_000 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm install failed:\n${stdout ?? ''}\n${stderr ?? ''}`, { cause: error });
  }
}
