import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';

/** A client protocol an official SDK speaks to the gateway. */
export type SDKClient = 'responses' | 'chat' | 'messages';

/**
 * One question through the gateway at `url` from the official SDK of `client`'s protocol on
 * `model`, whole or streamed: the answer's text.
 */
export async function askThroughGateway(gateway: { url: string; demoKey: string }, client: SDKClient, model: string, stream: boolean): Promise<string> {
  const input = `Name a harbour (${client}, ${stream ? 'streamed' : 'whole'}).`;
  if (client === 'messages') {
    const anthropic = new Anthropic({ baseURL: gateway.url, apiKey: gateway.demoKey, maxRetries: 0 });
    const body = { model, max_tokens: 64, messages: [{ role: 'user' as const, content: input }] };
    const message = stream ? await anthropic.messages.stream(body).finalMessage() : await anthropic.messages.create(body);
    return message.content.map(block => (block.type === 'text' ? block.text : '')).join('');
  }
  const openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: gateway.demoKey, maxRetries: 0 });
  if (client === 'responses') {
    if (!stream) return (await openai.responses.create({ model, input })).output_text;
    return (await openai.responses.stream({ model, input }).finalResponse()).output_text;
  }
  const messages = [{ role: 'user' as const, content: input }];
  if (!stream) return (await openai.chat.completions.create({ model, messages })).choices[0]!.message.content ?? '';
  return (await openai.chat.completions.stream({ model, messages }).finalChatCompletion()).choices[0]!.message.content ?? '';
}
