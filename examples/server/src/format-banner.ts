/** What the start banner shows. */
export type BannerInput = {
  url: string;
  models: string[];
  demoKey: string | undefined;
  demoKeyGenerated: boolean;
  newAdminToken: string | undefined;
  /** Where keys, balances and limits live and which setting chose them (`describeStorageChoice`); no line when absent. */
  storage?: string;
  /** Where `/metrics` is served, and whether it asks for the admin token (on the main port); no line when metrics are off. */
  metricsURL?: string | undefined;
};

/**
 * The text printed once at start (on stdout, beside the JSON logs): base URL, models, and
 * copy-paste snippets for both interfaces. It never contains a secret: a demo key or console token
 * created on this start is only pointed to here, and shown by `formatFirstStartSecrets` on stderr.
 */
export function formatBanner({ url, models, demoKey, demoKeyGenerated, newAdminToken, storage, metricsURL }: BannerInput): string {
  const model = models[0] ?? '<model_id>';
  const keyLine = demoKeyGenerated
    ? 'Demo API key: created on this start and shown once on stderr, never in the logs (set SIGNALBOX_DEMO_KEY to choose your own).'
    : demoKey !== undefined
      ? 'Demo API key: the value of SIGNALBOX_DEMO_KEY\n  export SIGNALBOX_API_KEY="$SIGNALBOX_DEMO_KEY"'
      : 'API keys: the store (data folder or database) has keys already (they are never shown again). A new one:\n  ./scripts/start.sh keys create --account <ACCOUNT_ID> --name laptop   (accounts: ./scripts/start.sh accounts list)';
  const adminLine = newAdminToken
    ? `\nConsole (admin) token for ${url}/admin: created on this start and shown once on stderr (rotate with \`admin-token rotate\`).\n`
    : '';
  return `
Signalbox gateway listening on ${url}
Account panel: ${url}/panel (log in with a console token)${storage ? `\n${storage}` : ''}${metricsLine(url, metricsURL)}

Models (exact IDs):
${models.map(id => `  - ${id}`).join('\n')}

${keyLine}
${adminLine}
Responses interface (OpenAI SDK: baseURL = ${url}/v1):
  curl ${url}/v1/responses -H "Authorization: Bearer $SIGNALBOX_API_KEY" \\
    -H 'content-type: application/json' -d '{"model":"${model}","input":"Say hello"}'

Messages interface (Anthropic SDK: baseURL = ${url}):
  curl ${url}/v1/messages -H "x-api-key: $SIGNALBOX_API_KEY" -H 'anthropic-version: 2023-06-01' \\
    -H 'content-type: application/json' \\
    -d '{"model":"${model}","max_tokens":256,"messages":[{"role":"user","content":"Say hello"}]}'

Streaming: add "stream": true to either body (curl -N to see events as they arrive).

SDKs:
  new OpenAI({ baseURL: '${url}/v1', apiKey: process.env.SIGNALBOX_API_KEY })
    .responses.create({ model: '${model}', input: 'Say hello' })
${formatAnthropicSnippet(url, model)}
`;
}

/**
 * The secrets created on this start — a generated demo key, a new console token — for stderr: the
 * one place they are shown, once, apart from stdout where the JSON logs go (a log collector never
 * receives them). Empty when this start created none.
 */
export function formatFirstStartSecrets({ url, demoKey, demoKeyGenerated, newAdminToken }: BannerInput): string {
  const lines: string[] = [];
  if (demoKeyGenerated && demoKey !== undefined) lines.push('Demo API key (shown once):', `  export SIGNALBOX_API_KEY=${demoKey}`);
  if (newAdminToken) lines.push(`Console (admin) token for ${url}/admin (shown once):`, `  ${newAdminToken}`);
  return lines.length > 0 ? `\n${lines.join('\n')}\n\n` : '';
}

/**
 * `@anthropic-ai/sdk` 1.x sends its `apiKey` as `Authorization: Bearer` with a newer
 * `anthropic-version`, which `/v1/messages` refuses by default (the Messages API reads `x-api-key`,
 * https://docs.anthropic.com/en/api/overview). These settings make 1.x send exactly `x-api-key` and
 * `anthropic-version: 2023-06-01`, and 0.x send the same. `apiKey` stays set so that the SDK uses no
 * other credential (no `ANTHROPIC_AUTH_TOKEN`, no local profile); `authorization: null` removes the
 * Bearer header it would make from it.
 */
function formatAnthropicSnippet(url: string, model: string): string {
  return `  new Anthropic({   // @anthropic-ai/sdk 1.x and 0.x
    baseURL: '${url}',
    apiKey: process.env.SIGNALBOX_API_KEY,
    defaultHeaders: { 'x-api-key': process.env.SIGNALBOX_API_KEY, 'anthropic-version': '2023-06-01', authorization: null },
  }).messages.create({ model: '${model}', max_tokens: 256, messages: [{ role: 'user', content: 'Say hello' }] })`;
}

function metricsLine(url: string, metricsURL: string | undefined): string {
  if (metricsURL === undefined) return '';
  const access = metricsURL.startsWith(`${url}/`) ? 'Authorization: Bearer <admin token>' : 'no token: keep this listener private';
  return `\nPrometheus metrics: ${metricsURL} (${access}; SIGNALBOX_METRICS=off turns them off)`;
}
