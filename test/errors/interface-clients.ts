import AnthropicV0 from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { TestGateway } from '../helpers/start-test-gateway';

/** The three client-facing interfaces, by the name routes use for them. */
export type InterfaceName = 'responses' | 'messages' | 'chat';
export const INTERFACES: readonly InterfaceName[] = ['responses', 'messages', 'chat'];

/** One HTTP answer as the client's fetch saw it: the raw body and headers SDK errors do not all keep. */
export type Exchange = { status: number; headers: Headers; text: string; headersAt: number };

/** Changes made to what the SDK sends, below the SDK (so its error handling stays the real one). */
export type RequestEdit = {
  /** A string sets the header, `null` removes it. */
  headers?: Record<string, string | null>;
  /** Replaces the JSON text the SDK built. */
  body?: (text: string) => string;
  /** Sends the body as a ReadableStream: chunked transfer encoding, no Content-Length. */
  chunked?: boolean;
};

export type ClientOptions = {
  /** The API key; for Messages sent as `x-api-key`, or as `Authorization: Bearer` with `messagesBearer`. */
  key: string;
  /** Default: `{url}/v1` for the OpenAI SDK, `{url}` for the Anthropic SDK. */
  baseURL?: string;
  edit?: RequestEdit;
  messagesBearer?: boolean;
};

type Body = Record<string, unknown>;

/** What the three SDKs' streams yield, as far as these tests read it. */
export type StreamEvent = { type?: string; choices?: Array<{ finish_reason?: string | null }> };

type SDKCalls = {
  /** A non-streaming create call; resolves with the SDK's parsed answer. */
  create(body: Body): Promise<unknown>;
  /** A streaming create call; resolves (with the event iterator) once the answer's headers are in. */
  stream(body: Body): Promise<AsyncIterable<StreamEvent>>;
  /** The SDK's own call to a path the gateway does not serve (cancelling a background response, batch listing). */
  unknownPath(): Promise<unknown>;
};

/** An official SDK bound to one interface, with every exchange it made recorded. */
export type InterfaceClient = SDKCalls & { name: InterfaceName; exchanges: Exchange[]; last(): Exchange };

/** Creates the official SDK for `name` against the test gateway, with `maxRetries: 0`. */
export function createInterfaceClient(
  server: TestGateway,
  name: InterfaceName,
  options: ClientOptions,
): InterfaceClient {
  const exchanges: Exchange[] = [];
  const sdkOptions = { maxRetries: 0, timeout: 20_000, fetch: recordingFetch(exchanges, options.edit ?? {}) };
  const last = () => exchanges.at(-1) ?? fail('the client made no request');
  return { name, exchanges, last, ...sdkCalls(server, name, options, sdkOptions) };
}

function sdkCalls(
  server: TestGateway,
  name: InterfaceName,
  options: ClientOptions,
  sdkOptions: { maxRetries: number; timeout: number; fetch: typeof fetch },
): SDKCalls {
  const streaming = <Params>(body: Body) => ({ ...body, stream: true }) as unknown as Params;
  if (name === 'messages') {
    const bearer = options.messagesBearer === true;
    const anthropic = new AnthropicV0({
      ...sdkOptions,
      baseURL: options.baseURL ?? server.url,
      apiKey: bearer ? null : options.key,
      authToken: bearer ? options.key : null,
    });
    return {
      create: body => anthropic.messages.create(body as never),
      stream: body => anthropic.messages.create(streaming<AnthropicV0.MessageCreateParamsStreaming>(body)),
      unknownPath: () => anthropic.messages.batches.list(),
    };
  }
  const openai = new OpenAI({
    ...sdkOptions,
    baseURL: options.baseURL ?? `${server.url}/v1`,
    apiKey: options.key,
  });
  if (name === 'responses') {
    return {
      create: body => openai.responses.create(body as never),
      stream: body =>
        openai.responses.create(streaming<OpenAI.Responses.ResponseCreateParamsStreaming>(body)),
      unknownPath: () => openai.responses.cancel('resp_unknown'),
    };
  }
  return {
    create: body => openai.chat.completions.create(body as never),
    stream: body =>
      openai.chat.completions.create(streaming<OpenAI.Chat.ChatCompletionCreateParamsStreaming>(body)),
    unknownPath: () => openai.chat.completions.retrieve('chatcmpl_unknown'),
  };
}

function recordingFetch(exchanges: Exchange[], edit: RequestEdit): typeof fetch {
  return async (input, init = {}) => {
    const headers = new Headers(init.headers);
    for (const [header, value] of Object.entries(edit.headers ?? {})) {
      if (value === null) headers.delete(header);
      else headers.set(header, value);
    }
    let body = init.body;
    if (edit.body && typeof body === 'string') body = edit.body(body);
    const request: RequestInit & { duplex?: 'half' } = { ...init, headers, body };
    if (edit.chunked && typeof body === 'string') {
      request.body = chunkedStream(body);
      request.duplex = 'half';
    }
    if (edit.body || edit.chunked) headers.delete('content-length');
    const response = await fetch(input, request);
    const exchange: Exchange = {
      status: response.status,
      headers: response.headers,
      text: '',
      headersAt: performance.now(),
    };
    if (!response.ok) exchange.text = await response.clone().text();
    exchanges.push(exchange);
    return response;
  };
}

/** The text as a stream of 4 KiB chunks, so fetch sends `Transfer-Encoding: chunked`. */
function chunkedStream(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + 4096));
      offset += 4096;
    },
  });
}

/** A minimal valid body for one user turn on the interface (Messages gets `max_tokens: 256`). */
export function promptBody(name: InterfaceName, model: string, text: string, extra: Body = {}): Body {
  switch (name) {
    case 'responses':
      return { model, input: text, ...extra };
    case 'messages':
      return { model, max_tokens: 256, messages: [{ role: 'user', content: text }], ...extra };
    case 'chat':
      return { model, messages: [{ role: 'user', content: text }], ...extra };
  }
}
