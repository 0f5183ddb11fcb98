import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listenOnLoopback, type LoopbackServer } from './listen-on-loopback';

type JSONObject = Record<string, unknown>;

/**
 * What the upstream reports, per protocol: a Message's `usage` (its stream's `message_start` has
 * these counts with `output_tokens: 1`, its `message_delta` has `deltaUsage`), a Response's and a
 * Chat completion's `usage`, a Gemini response's `usageMetadata` (on every chunk of its stream).
 */
export type ReplayedUsage = {
  messages: { usage: JSONObject; deltaUsage: JSONObject };
  responses: JSONObject;
  chat: JSONObject;
  gemini?: JSONObject;
};

const FIXTURES = join(__dirname, '../../packages');
const fixture = (codec: string, name: string) => readFileSync(join(FIXTURES, codec, 'src/__fixtures__', name), 'utf8');

/**
 * An upstream on loopback that speaks all four protocols (`POST /v1/messages`, `/v1/responses`,
 * `/v1/chat/completions`, Gemini's `generateContent` and `streamGenerateContent` for the model
 * `upstream-model`) by replaying each codec's recorded text answer, JSON or streamed as the request asks, with the usage objects replaced by `usage`: real answers whose only scripted part is
 * the usage (provenance of the recordings in each codec's `__fixtures__/README.md`).
 */
export async function startUsageReplayUpstream(usage: ReplayedUsage): Promise<LoopbackServer> {
  const answers = {
    '/v1/messages': {
      json: replaceJSON(fixture('codec-anthropic-messages', 'vendor-text.1.response.json'), body => ({ ...body, usage: usage.messages.usage })),
      stream: replaceFrames(fixture('codec-anthropic-messages', 'vendor-text.1.stream.sse'), data => {
        if (data.type === 'message_start') return { ...data, message: { ...(data.message as JSONObject), usage: { ...usage.messages.usage, output_tokens: 1 } } };
        return data.type === 'message_delta' ? { ...data, usage: usage.messages.deltaUsage } : data;
      }),
    },
    '/v1/responses': responsesAnswers(usage.responses),
    '/v1/chat/completions': {
      json: replaceJSON(fixture('codec-openai-chat', 'vendor-text.1.response.json'), body => ({ ...body, usage: usage.chat })),
      stream: replaceFrames(fixture('codec-openai-chat', 'vendor-text.1.stream.sse'), data => (data.usage ? { ...data, usage: usage.chat } : data)),
    },
    '/v1beta/models/upstream-model:generateContent': { json: geminiAnswer(usage.gemini ?? {}), stream: '' },
    '/v1beta/models/upstream-model:streamGenerateContent?alt=sse': {
      json: '',
      stream: replaceFrames(fixture('codec-google-gemini', 'text-thoughts.1.stream.sse'), data => ({ ...data, usageMetadata: usage.gemini ?? {} })),
    },
  };
  return listenOnLoopback((request, response) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', chunk => (text += chunk));
    request.on('end', () => {
      const answer = answers[request.url as keyof typeof answers];
      if (request.method !== 'POST' || !answer) return void response.writeHead(404).end();
      const stream = (JSON.parse(text) as { stream?: boolean }).stream === true || request.url!.includes(':streamGenerateContent');
      response.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' });
      response.end(stream ? answer.stream : answer.json);
    });
  });
}

/** Responses: the recorded stream, and its completed response as the JSON answer. */
function responsesAnswers(usage: JSONObject): { json: string; stream: string } {
  let completed: JSONObject | undefined;
  const stream = replaceFrames(fixture('codec-openai-responses', 'text-basic.1.stream.sse'), data => {
    if (data.type !== 'response.completed') return data;
    completed = { ...(data.response as JSONObject), usage };
    return { ...data, response: completed };
  });
  return { json: JSON.stringify(completed), stream };
}

/** Gemini: the recorded stream's text as one answer. */
function geminiAnswer(usageMetadata: JSONObject): string {
  const candidates = [{ content: { role: 'model', parts: [{ text: 'Grüße aus Oslo 👋!' }] }, finishReason: 'STOP', index: 0 }];
  return JSON.stringify({ candidates, usageMetadata, modelVersion: 'upstream-model', responseId: 'gH8oabCxNqKd1MkPkL6JwQ4' });
}

function replaceJSON(text: string, replace: (body: JSONObject) => JSONObject): string {
  return JSON.stringify(replace(JSON.parse(text) as JSONObject));
}

/** Each SSE frame's JSON `data` through `replace`; other lines (event names, `[DONE]`) as recorded. */
function replaceFrames(text: string, replace: (data: JSONObject) => JSONObject): string {
  return text.replace(/^data: (\{.*\})$/gm, (_line, json: string) => `data: ${JSON.stringify(replace(JSON.parse(json) as JSONObject))}`);
}
