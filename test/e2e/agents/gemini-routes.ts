import type { GatewayConfigInput } from '@signalbox/engine';

/** The example server's defaults plus a route whose upstream is the embedded simulator's Gemini API. */
export function withGeminiSimulatorRoute(config: GatewayConfigInput): GatewayConfigInput {
  const template = config.routes.find(route => route.model === 'sim-via-chat')!;
  return {
    ...config,
    upstreams: { ...config.upstreams, 'simulator-gemini': { protocol: 'google-gemini', baseURL: 'embedded:simulator/v1beta' } },
    routes: [...config.routes, { ...template, model: 'sim-via-gemini', description: 'Simulator reached over the Gemini API.', targets: [{ upstream: 'simulator-gemini', model: 'sim-1' }] }],
  };
}
