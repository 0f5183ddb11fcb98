// Headless Chromium for the browser tests of one jest worker, run by node as a program of its own
// so that it outlives each test file: arguments are the binary, a file to write the browser's
// WebSocket endpoint to, and the flags as JSON. It prints the endpoint once Chromium runs, and closes
// the browser and ends when its stdin does (when the worker that started it exits, however it exits).
import { rmSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [executablePath, endpointFile, flags] = process.argv.slice(2);
const server = await chromium.launchServer({ executablePath, headless: true, args: JSON.parse(flags) });
writeFileSync(endpointFile, server.wsEndpoint());
process.stdout.write(`${server.wsEndpoint()}\n`);
process.stdin.on('end', async () => {
  rmSync(endpointFile, { force: true });
  await server.close();
  process.exit(0);
});
process.stdin.resume();
