import { createServer, type Server } from 'node:http';
import type { AccountStore, AdminService } from '@signalbox/accounts';
import { SINGLE_CREDENTIAL_NAME, type GatewayConfig } from '@signalbox/engine';
import { createMetricsRouter, type Gateway } from '@signalbox/express';
import { createPrometheusMetrics, type PrometheusMetrics } from '@signalbox/metrics-prometheus';
import express, { type Router } from 'express';
import { listenHTTP } from './listen-http';
import type { MetricsSettings } from './read-metrics-settings';
import { StartUpError } from './start-up-error';

/** The example server's metrics: the observer for the gateway, then where `/metrics` is served. */
export type ExampleMetrics = {
  metrics: PrometheusMetrics;
  /**
   * Starts serving: returns the router to mount at `/metrics` on the main app (behind the admin
   * token) when there is no listener of its own, else opens that listener and returns its URL.
   */
  serve(gateway: Gateway, admin: AdminService, store: AccountStore): Promise<{ router: Router } | { url: string; listener: Server }>;
};

/**
 * Prometheus metrics for the example server's gateway, labelled by the config's routes, upstreams,
 * upstream credentials and, when its routes name groups, those groups (so no client value becomes a label), with
 * prom-client's process metrics.
 */
export function createExampleMetrics(config: GatewayConfig, settings: MetricsSettings): ExampleMetrics {
  // Tokens and cost by group only when routes are given to groups: those groups' names, others `other`.
  const groups = [...new Set(config.routes.flatMap(route => route.groups ?? []))];
  const metrics = createPrometheusMetrics({
    routes: config.routes.map(route => route.model),
    upstreams: Object.keys(config.upstreams),
    credentials: [...new Set(Object.values(config.upstreams).flatMap(upstream => upstream.credentials?.map(credential => credential.name) ?? [SINGLE_CREDENTIAL_NAME]))],
    ...(groups.length > 0 && { accountGroups: groups }),
  });
  return {
    metrics,
    async serve(gateway, admin, store) {
      metrics.watch({
        upstreamStats: () => gateway.engine.upstreamStats(),
        upstreamHealth: () => gateway.engine.upstreamHealth(),
        ...(store.holdTotals && { holdTotals: () => store.holdTotals!() }),
        webSocketStats: () => gateway.webSocketStats(),
      });
      if (settings.port === undefined) return { router: createMetricsRouter({ registry: metrics.exposition, engine: gateway.engine, admin }) };
      const app = express();
      app.disable('x-powered-by');
      app.use('/metrics', createMetricsRouter({ registry: metrics.exposition, engine: gateway.engine }));
      app.use(gateway.notFoundHandler, gateway.errorHandler);
      const host = settings.host ?? '127.0.0.1';
      const listener = createServer(app);
      const { url } = await listenHTTP(listener, settings.port, host).catch((error: unknown) => {
        throw describeListenError(error, host, settings.port!);
      });
      return { url: `${url}/metrics`, listener };
    },
  };
}

/** A busy or forbidden metrics port as a one-line start-up error naming the setting to change. */
function describeListenError(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== 'EADDRINUSE' && code !== 'EACCES' && code !== 'EADDRNOTAVAIL') return error;
  const problem = code === 'EADDRINUSE' ? 'is already in use' : code === 'EACCES' ? 'may not be opened by this user' : 'is not an address of this machine';
  return new StartUpError(
    `SIGNALBOX_METRICS_PORT=${port}: ${host}:${port} ${problem}; set SIGNALBOX_METRICS_PORT (or metrics.port) to a free port, SIGNALBOX_METRICS_HOST to another address, or unset the port to serve /metrics on the main port`,
    { cause: error },
  );
}
