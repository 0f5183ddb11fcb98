/* global process, require */
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: an ES module preload would start Node's ES module loader in the server it measures */
// Preloaded (`--require`) into a server by measure-idle-memory.mjs: on SIGUSR2 it writes to the
// file named by IDLE_MEMORY_REPORT what the process holds (Node's memory figures, V8's heap spaces,
// the modules loaded, resident memory by kind from /proc/self/status); before, it does nothing.
const { readFileSync, writeFileSync } = require('node:fs');
const { getHeapSpaceStatistics } = require('node:v8');

/** A field of /proc/self/status in bytes (`VmRSS`, `RssAnon`, `RssFile`). */
function statusBytes(status, field) {
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
}

process.on('SIGUSR2', () => {
  const status = readFileSync('/proc/self/status', 'utf8');
  const spaces = Object.fromEntries(getHeapSpaceStatistics().map(space => [space.space_name, { size: space.space_size, used: space.space_used_size }]));
  const { heapTotal, heapUsed, external } = process.memoryUsage();
  writeFileSync(
    process.env.IDLE_MEMORY_REPORT,
    JSON.stringify({
      rss: statusBytes(status, 'VmRSS'),
      rssAnonymous: statusBytes(status, 'RssAnon'),
      rssFile: statusBytes(status, 'RssFile'),
      heapTotal,
      heapUsed,
      external,
      spaces,
      modules: Object.keys(require.cache).length,
    }),
  );
});
