import { parseGatewayConfig } from '@signalbox/engine';
import { createDefaultConfig, DEFAULT_KEY_LIMITS } from './default-config';

describe('createDefaultConfig', () => {
  it('limits every key without limits of its own to 64 requests in flight and 256 waiting, so one key cannot take an upstream’s connections', () => {
    const config = parseGatewayConfig(createDefaultConfig('http://127.0.0.1:9'));
    expect(config.limits.default).toEqual({ concurrency: 64, queueSize: 256, queueTimeoutMs: 30_000 });
    expect(DEFAULT_KEY_LIMITS.concurrency).toBeLessThan(Math.min(...Object.values(config.upstreams).map(upstream => upstream.connections)));
  });
});
