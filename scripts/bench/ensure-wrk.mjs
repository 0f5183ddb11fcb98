// wrk, Debian's package, installed with apt-get when missing (as scripts/test.sh installs
// PostgreSQL); when that fails, the benchmark falls back to the Node load loop.
import { spawnSync } from 'node:child_process';

const found = () => spawnSync('wrk', ['-v'], { encoding: 'utf8' }).stdout?.includes('wrk');

/** Resolves the load generator to use: 'wrk' if present or installable, else 'node' with `note` called once to say why. */
export function ensureWrk(note) {
  if (found()) return 'wrk';
  const asRoot = process.getuid?.() === 0;
  const run = command => spawnSync(asRoot ? command[0] : 'sudo', asRoot ? command.slice(1) : command, { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status;
  const install = ['apt-get', 'install', '-y', '--no-install-recommends', 'wrk'];
  process.stderr.write('installing wrk (Debian package)…\n');
  let status = run(install);
  if (status !== 0 && run(['apt-get', 'update']) === 0) status = run(install);
  if (status === 0 && found()) return 'wrk';
  note('wrk is not installed and apt-get could not install it: the load comes from the Node loop (node-load.mjs), which uses more CPU per request on the same cores, so absolute figures are lower than with wrk');
  return 'node';
}
