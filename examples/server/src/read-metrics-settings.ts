import { isIP } from 'node:net';
import { z } from 'zod';
import { readConfigFileSection } from './read-config-file-section';
import { StartUpError } from './start-up-error';

/**
 * Where the example server serves `GET /metrics`: on its own port behind the admin token (no
 * `port`), or on a listener of its own at `host:port` without a token, for a scraper on a private
 * network. On unless turned off.
 */
export type MetricsSettings = { enabled: boolean; host?: string; port?: number };

const hostName = z.string().refine(host => isIP(host) !== 0 || /^[A-Za-z0-9.-]+$/.test(host), 'must be an IP address or host name');
const metricsSection = z
  .strictObject({
    enabled: z.boolean().optional(),
    host: hostName.optional(),
    port: z.number().int('must be a whole port number').min(0).max(65_535).optional(),
  })
  .refine(section => section.host === undefined || section.port !== undefined, { message: 'a host needs a port: give port too' });

/** The config file's `metrics` section: the example server's, taken out before the gateway config is parsed. */
export type ConfigFileMetrics = z.infer<typeof metricsSection>;

/** Validates the config file's `metrics` section (absent: `undefined`); a problem names the file and the path at fault. */
export function readConfigFileMetrics(path: string, section: unknown): ConfigFileMetrics | undefined {
  return readConfigFileSection(path, 'metrics', metricsSection, section, issue => issue.message);
}

/**
 * Reads `SIGNALBOX_METRICS` (`off` turns metrics off, `on` back on), `SIGNALBOX_METRICS_PORT` and
 * `SIGNALBOX_METRICS_HOST` (a listener of its own); only what is set, to lay over the config file's section.
 */
export function readMetricsEnvironment(environment: NodeJS.ProcessEnv): Partial<MetricsSettings> {
  const switched = environment.SIGNALBOX_METRICS?.trim().toLowerCase();
  if (switched && switched !== 'on' && switched !== 'off') {
    throw new StartUpError(`SIGNALBOX_METRICS=${environment.SIGNALBOX_METRICS}: must be off (no /metrics) or on; default on`);
  }
  const port = environment.SIGNALBOX_METRICS_PORT?.trim();
  if (port && !(/^\d{1,5}$/.test(port) && Number(port) <= 65_535)) {
    throw new StartUpError(`SIGNALBOX_METRICS_PORT=${port}: must be a port number for a metrics listener of its own (0 picks a free one); unset serves /metrics on the main port behind the admin token`);
  }
  const host = environment.SIGNALBOX_METRICS_HOST?.trim();
  if (host && !hostName.safeParse(host).success) {
    throw new StartUpError(`SIGNALBOX_METRICS_HOST=${host}: must be an IP address or host name to listen on, such as 127.0.0.1; default 127.0.0.1`);
  }
  return {
    ...(switched && { enabled: switched === 'on' }),
    ...(port && { port: Number(port) }),
    ...(host && { host }),
  };
}

/** The environment's settings over the config file's, field by field; on, on the main port, by default. */
export function chooseMetricsSettings(file: ConfigFileMetrics | undefined, environment: Partial<MetricsSettings>): MetricsSettings {
  const settings = { enabled: true, ...file, ...environment };
  if (settings.host !== undefined && settings.port === undefined) {
    throw new StartUpError('SIGNALBOX_METRICS_HOST needs SIGNALBOX_METRICS_PORT (or metrics.port in the config file): the port of the metrics listener');
  }
  return settings;
}
