import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { geminiClient } from './gemini-client';

/** A client protocol by the name its official SDK's call goes by. */
export type ClientProtocol = 'responses' | 'chat' | 'messages' | 'gemini';

/** The official SDKs pointed at a gateway, with its demo key and no retries of their own. */
export function protocolClients(server: { url: string; demoKey: string }) {
  const openai = () => new OpenAI({ baseURL: `${server.url}/v1`, apiKey: server.demoKey, maxRetries: 0 });
  const anthropic = () => new Anthropic({ baseURL: server.url, apiKey: server.demoKey, maxRetries: 0 });
  const gemini = () => geminiClient(server.demoKey, server.url);

  /** One question from a client of `client`'s protocol on `model`, whole or streamed: the answer's text. */
  async function ask(client: ClientProtocol, model: string, stream: boolean, question: string): Promise<string> {
    const input = `${question} (${client}, ${stream ? 'streamed' : 'whole'}).`;
    if (client === 'responses') {
      if (!stream) return (await openai().responses.create({ model, input })).output_text;
      return (await openai().responses.stream({ model, input }).finalResponse()).output_text;
    }
    if (client === 'chat') {
      const messages = [{ role: 'user' as const, content: input }];
      if (!stream) return (await openai().chat.completions.create({ model, messages })).choices[0]!.message.content ?? '';
      return (await openai().chat.completions.stream({ model, messages }).finalChatCompletion()).choices[0]!.message.content ?? '';
    }
    if (client === 'gemini') {
      if (!stream) return (await gemini().models.generateContent({ model, contents: input })).text ?? '';
      let text = '';
      for await (const chunk of await gemini().models.generateContentStream({ model, contents: input })) text += chunk.text ?? '';
      return text;
    }
    const body = { model, max_tokens: 64, messages: [{ role: 'user' as const, content: input }] };
    const message = stream ? await anthropic().messages.stream(body).finalMessage() : await anthropic().messages.create(body);
    return message.content.map(block => (block.type === 'text' ? block.text : '')).join('');
  }

  return { openai, anthropic, gemini, ask };
}
