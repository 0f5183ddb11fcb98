// Memory per open stream: the server's resident memory before and while `streams` streams are
// held open through it by a client process (open-streams-probe.mjs), divided by the streams.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { readRssBytes } from './process-usage.mjs';
import { probeRequestEnvironment } from './probe-request.mjs';

/**
 * Holds `streams` requests (`request`: `{ path, headers, body }` asking for a stream that stays
 * open) against `server` and resolves with `{ perStreamBytes, opened, held, failed, rssBefore,
 * rssOpen }`. `opened` counts the streams that got their response headers within `seconds`.
 */
export async function measureOpenStreams(server, request, streams, seconds = 15) {
  // Settle first: a server just started is still loading and compiling.
  await wait(1000);
  const rssBefore = readRssBytes(server.pid);
  const child = spawn(process.execPath, [join(import.meta.dirname, 'open-streams-probe.mjs')], {
    env: { PATH: process.env.PATH, ...probeRequestEnvironment(`${server.url}${request.path}`, request), BENCH_STREAMS: String(streams), BENCH_SECONDS: String(seconds) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise(resolve => child.once('exit', resolve));
  let output = '';
  child.stderr.on('data', chunk => (output += chunk));
  const opened = await new Promise((resolve, reject) => {
    child.stdout.on('data', chunk => {
      output += chunk;
      const line = /^BENCH-OPEN (.*)$/m.exec(output);
      if (line) resolve(JSON.parse(line[1]));
    });
    child.once('exit', code => reject(new Error(`open-streams-probe.mjs exited with ${code}:\n${output.slice(-2000)}`)));
  });
  await wait(1000);
  const rssOpen = readRssBytes(server.pid);
  child.stdin.write('close\n');
  await exited;
  // Let the server wind the dropped streams down before the next measurement.
  await wait(1000);
  return { perStreamBytes: (rssOpen - rssBefore) / streams, opened: opened.opened, failed: opened.failed, held: streams, rssBefore, rssOpen };
}
