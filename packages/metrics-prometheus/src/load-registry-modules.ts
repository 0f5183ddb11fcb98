/* eslint-disable @typescript-eslint/no-require-imports -- each loader is a lazy `require`: the point of this file */
import type * as PromClientModule from 'prom-client';
import type * as PullGaugesModule from './register-pull-gauges';

// prom-client (and the OpenTelemetry API its process CPU metric reads for exemplars) is only needed
// to format a scrape: the observer counts into this package's own series, so a gateway nobody
// scrapes never loads it. `require` rather than `import()`: this package is CommonJS.

/** prom-client: its `Registry`, its default process metrics, the classes of the pull gauges. */
export function loadPromClient(): typeof PromClientModule {
  return require('prom-client') as typeof PromClientModule;
}

/** The gauges read at scrape time (upstream connections and health, holds, WebSocket connections), which are prom-client's. */
export function loadPullGauges(): typeof PullGaugesModule {
  return require('./register-pull-gauges') as typeof PullGaugesModule;
}
