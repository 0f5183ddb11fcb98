// Starts the servers of one benchmark run, each its own process with its log in the run's folder:
// the simulator (the one upstream everybody shares), the floor, gateways (the example server's
// dist with a config pointing at that simulator), the Portkey peer and the bench Bedrock upstream
// (`--bedrock`) with the AWS keys a Bedrock gateway signs with.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BEDROCK_REGION, DEFAULT_CONNECTIONS, writeBenchConfig } from './bench-config.mjs';
import { startServerProcess } from './server-process.mjs';
import { freePort } from './throwaway-databases.mjs';

const root = join(import.meta.dirname, '../..');

/** The simulator on its own, tokens as fast as it can write them unless a request's `[[sim:slow=MS]]` says otherwise. */
export function startSimulator(folder) {
  return startServerProcess({ name: 'simulator', script: 'packages/simulator/dist/main.js', cwd: root, environment: { PORT: '0' }, logFile: join(folder, 'simulator.log') });
}

/** The raw pass-through proxy in front of `simulatorURL`, its log named after `name`; its pool sized for `streams` held open. */
export function startFloor(folder, simulatorURL, name = 'floor', { streams = 0 } = {}) {
  const environment = { PORT: '0', UPSTREAM_URL: simulatorURL, MAX_SOCKETS: String(Math.max(DEFAULT_CONNECTIONS, streams)) };
  return startServerProcess({ name, script: 'scripts/bench/raw-proxy.mjs', cwd: root, environment, logFile: join(folder, `${name}.log`) });
}

/**
 * The example server in front of `simulatorURL`, named `name` (its config, data folder and log are
 * named after it). `key` is adopted as its demo key. `storage` is `{ kind: 'sqlite' }` (a data
 * folder of its own) or `{ kind: 'postgres', databaseURL, redisURL, serverSecret }`. `pricing` and
 * `limits` (default true) and `logLevel` (default info, logs go to the log file) are the switches
 * the middleware measurement turns; `environment` adds variables (the observability switches); `streams` sizes the upstream pool and
 * the key's concurrency for that many open streams; `bedrock` (`{ url, environment }` of
 * `startBedrockUpstream`) adds the Messages and Bedrock routes and the AWS keys they sign with;
 * `webSocket` is the config's `webSocket` block; `nodeOptions` e.g. `--cpu-prof`.
 */
export function startGateway(folder, name, simulatorURL, { key, storage, pricing = true, limits = true, logLevel = 'info', environment: extra = {}, streams = 0, bedrock, webSocket, nodeOptions = [] }) {
  const configPath = join(folder, `${name}-config.json`);
  writeBenchConfig(configPath, simulatorURL, { pricing, limits, streams, bedrockURL: bedrock?.url, webSocket });
  const data = join(folder, `${name}-data`);
  mkdirSync(data, { recursive: true });
  const environment = {
    PORT: '0',
    LOG_LEVEL: logLevel,
    SIGNALBOX_CONFIG: configPath,
    SIGNALBOX_DEMO_KEY: key,
    SIGNALBOX_DATA_DIR: data,
    SIGNALBOX_SHUTDOWN_GRACE_MS: '0',
    ...(storage.kind === 'postgres' && {
      SIGNALBOX_DATABASE_URL: storage.databaseURL,
      SIGNALBOX_REDIS_URL: storage.redisURL,
      SIGNALBOX_SERVER_SECRET: storage.serverSecret,
      SIGNALBOX_ADMIN_TOKEN: randomBytes(24).toString('hex'),
    }),
    ...bedrock?.environment,
    ...extra,
  };
  return startServerProcess({ name, script: 'examples/server/dist/main.js', cwd: root, nodeOptions, environment, logFile: join(folder, `${name}.log`) });
}

/** The Portkey gateway (`@portkey-ai/gateway`, the npm package's own start script, headless) on a free port, its log named after `name`. */
export async function startPortkey(folder, name = 'portkey') {
  const port = await freePort();
  const script = join(root, 'node_modules/@portkey-ai/gateway/build/start-server.js');
  return startServerProcess({
    name,
    script,
    args: [`--port=${port}`, '--headless'],
    nodeOptions: ['--import', join(import.meta.dirname, 'portkey-fetch-shim.mjs')],
    cwd: root,
    environment: { NODE_ENV: 'production' },
    logFile: join(folder, `${name}.log`),
    ready: log => (log.includes('Ready for connections') ? `http://127.0.0.1:${port}` : undefined),
  });
}

/**
 * The bench Bedrock upstream (bedrock-upstream.mjs) answering from the simulator at `simulatorURL`,
 * with a random AWS key pair of this run. Resolves with the server, plus `environment`: the AWS SDK
 * chain's variables for a gateway, the keys in the environment and every other source (shared files,
 * container and instance metadata) out of reach, so the chain never touches the network.
 */
export async function startBedrockUpstream(folder, simulatorURL) {
  const accessKeyId = `AKIA${randomBytes(8).toString('hex').toUpperCase()}`;
  const secretAccessKey = randomBytes(30).toString('base64');
  const server = await startServerProcess({
    name: 'bedrock-upstream',
    script: 'scripts/bench/bedrock-upstream.mjs',
    cwd: root,
    environment: { PORT: '0', SIMULATOR_URL: simulatorURL, BENCH_AWS_REGION: BEDROCK_REGION, BENCH_AWS_ACCESS_KEY_ID: accessKeyId, BENCH_AWS_SECRET_ACCESS_KEY: secretAccessKey },
    logFile: join(folder, 'bedrock-upstream.log'),
  });
  const environment = {
    AWS_ACCESS_KEY_ID: accessKeyId,
    AWS_SECRET_ACCESS_KEY: secretAccessKey,
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_CONFIG_FILE: join(folder, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: join(folder, 'no-aws-credentials'),
  };
  return { ...server, environment };
}
