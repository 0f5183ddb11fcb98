/** The interfaces a route may serve, as the config names them. */
export type Interface = 'responses' | 'messages' | 'chat';

export type Snippet = { title: string; code: string };

/**
 * Copy-paste snippets for one route, filled in with the gateway's base URL: curl on each interface
 * the route serves, the OpenAI SDK (base `{base}/v1`), the Anthropic SDK (base `{base}`, key as
 * `x-api-key`), Claude Code's environment and Codex's config.toml. The key comes from
 * `SIGNALBOX_API_KEY`, never from the snippet.
 */
export function buildSnippets(baseURL: string, model: string, interfaces: readonly string[]): Snippet[] {
  const snippets: Snippet[] = [];
  const has = (name: Interface) => interfaces.includes(name);
  if (has('responses')) {
    snippets.push({
      title: 'curl (Responses)',
      code: `curl ${baseURL}/v1/responses \\\n  -H "Authorization: Bearer $SIGNALBOX_API_KEY" \\\n  -H 'content-type: application/json' \\\n  -d '{"model":"${model}","input":"Say hello"}'`,
    });
  }
  if (has('messages')) {
    snippets.push({
      title: 'curl (Messages)',
      code: `curl ${baseURL}/v1/messages \\\n  -H "x-api-key: $SIGNALBOX_API_KEY" -H 'anthropic-version: 2023-06-01' \\\n  -H 'content-type: application/json' \\\n  -d '{"model":"${model}","max_tokens":256,"messages":[{"role":"user","content":"Say hello"}]}'`,
    });
  }
  if (has('chat')) {
    snippets.push({
      title: 'curl (Chat Completions)',
      code: `curl ${baseURL}/v1/chat/completions \\\n  -H "Authorization: Bearer $SIGNALBOX_API_KEY" \\\n  -H 'content-type: application/json' \\\n  -d '{"model":"${model}","messages":[{"role":"user","content":"Say hello"}]}'`,
    });
  }
  if (has('responses') || has('chat')) {
    const call = has('responses')
      ? `const response = await client.responses.create({ model: '${model}', input: 'Say hello' });\nconsole.log(response.output_text);`
      : `const completion = await client.chat.completions.create({\n  model: '${model}',\n  messages: [{ role: 'user', content: 'Say hello' }],\n});\nconsole.log(completion.choices[0].message.content);`;
    snippets.push({
      title: 'OpenAI SDK (TypeScript)',
      code: `import OpenAI from 'openai';\n\nconst client = new OpenAI({ baseURL: '${baseURL}/v1', apiKey: process.env.SIGNALBOX_API_KEY });\n${call}`,
    });
  }
  if (has('messages')) {
    snippets.push({
      title: 'Anthropic SDK (TypeScript)',
      code: `import Anthropic from '@anthropic-ai/sdk';\n\nconst key = process.env.SIGNALBOX_API_KEY;\nconst client = new Anthropic({\n  baseURL: '${baseURL}',\n  apiKey: key,\n  defaultHeaders: { 'x-api-key': key, 'anthropic-version': '2023-06-01', authorization: null },\n});\nconst message = await client.messages.create({\n  model: '${model}',\n  max_tokens: 256,\n  messages: [{ role: 'user', content: 'Say hello' }],\n});`,
    });
    snippets.push({
      title: 'Claude Code (shell)',
      code: `export ANTHROPIC_BASE_URL=${baseURL}\nexport ANTHROPIC_API_KEY="$SIGNALBOX_API_KEY"\nexport ANTHROPIC_MODEL=${model}\nexport ANTHROPIC_DEFAULT_HAIKU_MODEL=${model}\nclaude -p "Say hello"`,
    });
  }
  if (has('responses')) {
    snippets.push({
      title: 'Codex (~/.codex/config.toml)',
      code: `model = "${model}"\nmodel_provider = "signalbox"\n\n[model_providers.signalbox]\nname = "Signalbox"\nbase_url = "${baseURL}/v1"\nenv_key = "SIGNALBOX_API_KEY"\nwire_api = "responses"`,
    });
  }
  return snippets;
}
