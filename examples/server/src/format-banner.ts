import type { FirstStartSecrets } from './create-first-start-secrets';
import type { ExampleServer } from './start-example-server';

/** What the start banner shows. */
export type BannerInput = {
  url: string;
  /** The routes in config order: each exact model ID and the interfaces (`responses`, `messages`, `chat`) it serves. */
  routes: readonly { model: string; interfaces: readonly string[] }[];
  demoKey: string | undefined;
  demoKeyGenerated: boolean;
  adminTokenSource: ExampleServer['adminTokenSource'];
  /** Where keys, balances and limits live and which setting chose them (`describeStorageChoice`); no line when absent. */
  storage?: string;
  /** Where `/metrics` is served, and whether it asks for the admin token (on the main port); no line when metrics are off. */
  metricsURL?: string | undefined;
};

/** The command that runs a management command, as the README and the CLI's usage write it. */
const START = './scripts/start.sh';

/**
 * The text printed once at start (on stdout, beside the JSON logs): base URL, the panel, models,
 * and copy-paste snippets for each interface, with a model whose route serves it. It never contains
 * a secret: a demo key or admin token created on this start is only pointed to here, and shown by
 * `formatFirstStartSecrets` on stderr.
 */
export function formatBanner(input: BannerInput): string {
  const { url, routes, storage, metricsURL } = input;
  const snippets = [responsesSnippet, messagesSnippet, chatSnippet].flatMap(snippet => snippet(url, routes) ?? []);
  return `
Signalbox gateway listening on ${url}
Panel: ${url}/panel (log in with the admin token, or an account's console token)${storage ? `\n${storage}` : ''}${metricsLine(url, metricsURL)}

Models (exact IDs, and the interfaces each serves):
${routes.map(route => `  - ${route.model} (${route.interfaces.join(', ')})`).join('\n')}

${keyLine(input)}
${adminTokenLine(input)}

${snippets.join('\n\n')}

Streaming: add "stream": true to any of these bodies (curl -N to see events as they arrive).
`;
}

/**
 * The secrets created on this start — a generated demo key, a new admin token — for stderr: the
 * one place they are shown, once, apart from stdout where the JSON logs go (a log collector never
 * receives them). Empty when this start created none.
 */
export function formatFirstStartSecrets({ url, demoKey, adminToken }: FirstStartSecrets & { url: string }): string {
  const lines: string[] = [];
  if (demoKey !== undefined) lines.push('Demo API key (shown once):', `  export SIGNALBOX_API_KEY=${demoKey}`);
  if (adminToken !== undefined) lines.push(`Admin token, to log in at ${url}/panel and for ${url}/admin (shown once):`, `  ${adminToken}`);
  return lines.length > 0 ? `\n${lines.join('\n')}\n\n` : '';
}

function keyLine({ demoKey, demoKeyGenerated }: BannerInput): string {
  if (demoKeyGenerated) return 'Demo API key: created on this start and shown once on stderr, never in the logs (set SIGNALBOX_DEMO_KEY to choose your own).';
  if (demoKey !== undefined) return 'Demo API key: the value of SIGNALBOX_DEMO_KEY\n  export SIGNALBOX_API_KEY="$SIGNALBOX_DEMO_KEY"';
  return `API keys: the store (data folder or database) has keys already (they are never shown again). A new one:\n  ${START} keys create --account <ACCOUNT_ID> --name laptop   (accounts: ${START} accounts list)`;
}

/** Where the admin token comes from, and how to get one when it was shown on an earlier start only. */
function adminTokenLine({ url, adminTokenSource }: BannerInput): string {
  const panel = `log in with it at ${url}/panel`;
  switch (adminTokenSource) {
    case 'created':
      return `Admin token: created on this start and shown once on stderr; ${panel} (it also opens ${url}/admin).`;
    case 'data-folder':
      return `Admin token: the one shown on this data folder's first start (only its digest is kept); ${panel}. Lost it? ${START} admin-token rotate prints a new one.`;
    case 'given':
      return `Admin token: the one SIGNALBOX_ADMIN_TOKEN (or SIGNALBOX_ADMIN_TOKEN_SHA256) sets; ${panel}.`;
    case 'none':
      return `Admin token: none (set SIGNALBOX_ADMIN_TOKEN for one); account console tokens still log in at ${url}/panel.`;
  }
}

/** The first model whose route serves `interfaceName`; none when no route does. */
function modelServing(routes: BannerInput['routes'], interfaceName: string): string | undefined {
  return routes.find(route => route.interfaces.includes(interfaceName))?.model;
}

function responsesSnippet(url: string, routes: BannerInput['routes']): string | undefined {
  const model = modelServing(routes, 'responses');
  if (model === undefined) return undefined;
  return `Responses interface (OpenAI SDK: baseURL = ${url}/v1):
  curl ${url}/v1/responses -H "Authorization: Bearer $SIGNALBOX_API_KEY" \\
    -H 'content-type: application/json' -d '{"model":"${model}","input":"Say hello"}'
  new OpenAI({ baseURL: '${url}/v1', apiKey: process.env.SIGNALBOX_API_KEY })
    .responses.create({ model: '${model}', input: 'Say hello' })`;
}

/**
 * `@anthropic-ai/sdk` 1.x sends its `apiKey` as `Authorization: Bearer` with a newer
 * `anthropic-version`, which `/v1/messages` refuses by default (the Messages API reads `x-api-key`,
 * https://docs.anthropic.com/en/api/overview). These settings make 1.x send exactly `x-api-key` and
 * `anthropic-version: 2023-06-01`, and 0.x send the same. `apiKey` stays set so that the SDK uses no
 * other credential (no `ANTHROPIC_AUTH_TOKEN`, no local profile); `authorization: null` removes the
 * Bearer header it would make from it.
 */
function messagesSnippet(url: string, routes: BannerInput['routes']): string | undefined {
  const model = modelServing(routes, 'messages');
  if (model === undefined) return undefined;
  return `Messages interface (Anthropic SDK: baseURL = ${url}):
  curl ${url}/v1/messages -H "x-api-key: $SIGNALBOX_API_KEY" -H 'anthropic-version: 2023-06-01' \\
    -H 'content-type: application/json' \\
    -d '{"model":"${model}","max_tokens":256,"messages":[{"role":"user","content":"Say hello"}]}'
  new Anthropic({   // @anthropic-ai/sdk 1.x and 0.x
    baseURL: '${url}',
    apiKey: process.env.SIGNALBOX_API_KEY,
    defaultHeaders: { 'x-api-key': process.env.SIGNALBOX_API_KEY, 'anthropic-version': '2023-06-01', authorization: null },
  }).messages.create({ model: '${model}', max_tokens: 256, messages: [{ role: 'user', content: 'Say hello' }] })`;
}

function chatSnippet(url: string, routes: BannerInput['routes']): string | undefined {
  const model = modelServing(routes, 'chat');
  if (model === undefined) return undefined;
  return `Chat Completions interface (OpenAI SDK: baseURL = ${url}/v1):
  curl ${url}/v1/chat/completions -H "Authorization: Bearer $SIGNALBOX_API_KEY" \\
    -H 'content-type: application/json' -d '{"model":"${model}","messages":[{"role":"user","content":"Say hello"}]}'`;
}

function metricsLine(url: string, metricsURL: string | undefined): string {
  if (metricsURL === undefined) return '';
  const access = metricsURL.startsWith(`${url}/`) ? 'Authorization: Bearer <admin token>' : 'no token: keep this listener private';
  return `\nPrometheus metrics: ${metricsURL} (${access}; SIGNALBOX_METRICS=off turns them off)`;
}
