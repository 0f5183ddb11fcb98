import { createSimulator, type Simulator } from '@signalbox/simulator';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenOnLoopback } from './listen-on-loopback';
import { readRequestText } from './read-request-text';

export type AzureOpenAIEmulator = {
  /** The v1 API base URL, as `https://{resource}.openai.azure.com/openai/v1` would be. */
  baseURL: string;
  simulator: Simulator;
  /** Each call's credential as checked: `api-key`, or the token of `Authorization: Bearer`, in order. */
  credentials: { scheme: 'api-key' | 'bearer'; value: string; accepted: boolean }[];
  /** Each served call's path and the deployment its body named (`model`), in order. */
  served: { path: string; deployment: unknown }[];
  close(): Promise<void>;
};

export type AzureOpenAIEmulatorOptions = {
  /** The resource's keys (`api-key`). */
  apiKeys: readonly string[];
  /** Whether a bearer token is a valid Entra token for the resource (signature, audience, expiry). */
  verifyToken?: (token: string) => Promise<boolean>;
};

/** The Azure OpenAI v1 API's refusal of a missing or wrong key, and of a bad or expired token. */
const INVALID_KEY = { error: { code: '401', message: 'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.' } };
const INVALID_TOKEN = { error: { code: '401', message: 'Unauthorized. Access token is missing, invalid, audience is incorrect (https://cognitiveservices.azure.com), or have expired.' } };

/**
 * An Azure OpenAI resource's v1 API on 127.0.0.1: `POST /openai/v1/responses` and
 * `/openai/v1/chat/completions`, no `api-version`. Each call must carry a key of the resource
 * (`api-key`) or a valid Entra token (`Authorization: Bearer`), else a 401 in Azure's words; behind
 * that check the simulator answers, with the deployment name as its model.
 */
export async function startAzureOpenAIEmulator(options: AzureOpenAIEmulatorOptions): Promise<AzureOpenAIEmulator> {
  const simulator = createSimulator({ tokenDelayMs: 0 });
  const credentials: AzureOpenAIEmulator['credentials'] = [];
  const served: AzureOpenAIEmulator['served'] = [];
  const listener = (request: IncomingMessage, response: ServerResponse) => {
    void serve(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  };
  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://azure.local');
    if (!url.pathname.startsWith('/openai/v1/') || url.searchParams.has('api-version')) return refuse(response, 404, { error: { code: '404', message: 'Resource not found' } });
    const apiKey = request.headers['api-key'];
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (typeof apiKey === 'string') {
      const accepted = options.apiKeys.includes(apiKey);
      credentials.push({ scheme: 'api-key', value: apiKey, accepted });
      if (!accepted) return refuse(response, 401, INVALID_KEY);
    } else if (bearer !== undefined) {
      const accepted = (await options.verifyToken?.(bearer)) === true;
      credentials.push({ scheme: 'bearer', value: bearer, accepted });
      if (!accepted) return refuse(response, 401, INVALID_TOKEN);
    } else {
      return refuse(response, 401, INVALID_KEY);
    }
    // The simulator serves the OpenAI paths; it keeps its per-key stats under the credential's scheme.
    const body = JSON.parse(await readRequestText(request)) as Record<string, unknown>;
    served.push({ path: url.pathname, deployment: body['model'] });
    request.url = url.pathname.replace(/^\/openai\/v1\//, '/v1/');
    delete request.headers.authorization;
    request.headers['api-key'] = typeof apiKey === 'string' ? apiKey : 'entra';
    Object.assign(request, { body });
    simulator.handler(request, response);
  }
  const server = await listenOnLoopback(listener);
  return { baseURL: `${server.url}/openai/v1`, simulator, credentials, served, close: server.close };
}

function refuse(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'apim-request-id': 'emulated' }).end(JSON.stringify(body));
}
