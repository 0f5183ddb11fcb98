import { Gauge, type Registry } from 'prom-client';
import type { LabelValues } from './label-values';
import type { UpstreamHealth } from './register-pull-gauges';

/** Every state a credential can be in, each a series of the state gauge (1 for the one it is in). */
const CREDENTIAL_STATES = ['healthy', 'cooling-down', 'circuit-open', 'circuit-half-open', 'disabled'] as const;
const UPSTREAM_STATES = ['healthy', 'circuit-open', 'circuit-half-open'] as const;

/** The state of each upstream and credential, and each credential's requests in flight, read at scrape time. */
export function registerHealthGauges(registers: Registry[], labels: LabelValues, read: () => UpstreamHealth): void {
  new Gauge({
    name: 'signalbox_upstream_state',
    help: "Each upstream's own circuit: 1 for the state it is in (healthy, circuit-open, circuit-half-open), 0 for the others.",
    labelNames: ['upstream', 'state'] as const,
    registers,
    collect() {
      this.reset();
      for (const upstream of read()) {
        for (const state of UPSTREAM_STATES) this.set({ upstream: labels.upstream(upstream.name), state }, upstream.state === state ? 1 : 0);
      }
    },
  });
  new Gauge({
    name: 'signalbox_upstream_credential_state',
    help: 'Each upstream credential: 1 for the state it is in (healthy, cooling-down, circuit-open, circuit-half-open, disabled), 0 for the others.',
    labelNames: ['upstream', 'credential', 'state'] as const,
    registers,
    collect() {
      this.reset();
      for (const { names, credential } of credentialsOf(read(), labels)) {
        for (const state of CREDENTIAL_STATES) this.set({ ...names, state }, credential.state === state ? 1 : 0);
      }
    },
  });
  new Gauge({
    name: 'signalbox_upstream_credential_in_flight',
    help: 'Requests using each upstream credential now, from their attempt until they settle.',
    labelNames: ['upstream', 'credential'] as const,
    registers,
    collect() {
      this.reset();
      for (const { names, credential } of credentialsOf(read(), labels)) this.set(names, credential.inFlight);
    },
  });
}

/** Each credential of each upstream with its label values. */
function* credentialsOf(upstreams: UpstreamHealth, labels: LabelValues) {
  for (const upstream of upstreams) {
    for (const credential of upstream.credentials) {
      yield { names: { upstream: labels.upstream(upstream.name), credential: labels.credential(credential.name) }, credential };
    }
  }
}
