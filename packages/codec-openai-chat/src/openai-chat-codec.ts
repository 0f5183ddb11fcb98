import { createDroppedOptionsDescriber, type Codec } from '@signalbox/core';
import { openAIChatDescriptor } from './openai-chat-descriptor';
import { createOpenAIChatPassthroughStream } from './stream/create-openai-chat-passthrough-stream';
import { decodeOpenAIError, encodeOpenAIError, encodeOpenAIModelList, setOpenAIPromptCacheKey } from '@signalbox/codec-openai-shared';
import { capOpenAIChatOutputTokens } from './request/cap-openai-chat-output-tokens';
import { decodeOpenAIChatRequest } from './request/decode-openai-chat-request';
import { encodeOpenAIChatRequest } from './request/encode-openai-chat-request';
import { openAIChatUpstreamQuirks } from './request/openai-chat-upstream-quirks';
import { decodeOpenAIChatResponse } from './response/decode-openai-chat-response';
import { encodeOpenAIChatResponse } from './response/encode-openai-chat-response';
import { createOpenAIChatStreamDecoder } from './stream/decode-openai-chat-stream';
import { createOpenAIChatStreamEncoder } from './stream/encode-openai-chat-stream';
import { describeOpenAIChatOpenAPI } from './openapi/describe-openai-chat-openapi';

/** The OpenAI Chat Completions protocol (`POST /v1/chat/completions`), on both sides of the gateway. */
export const openAIChatCodec: Codec = {
  protocol: 'openai-chat',
  descriptor: openAIChatDescriptor,
  decodeRequest: decodeOpenAIChatRequest,
  encodeRequest: encodeOpenAIChatRequest,
  decodeResponse: decodeOpenAIChatResponse,
  encodeResponse: encodeOpenAIChatResponse,
  createStreamDecoder: createOpenAIChatStreamDecoder,
  createStreamEncoder: createOpenAIChatStreamEncoder,
  decodeError: decodeOpenAIError,
  encodeError: encodeOpenAIError,
  encodeModelList: encodeOpenAIModelList,
  describeDroppedOptions: createDroppedOptionsDescriber([
    'stream_options',
    'max_tokens',
    'store',
    'prompt_cache_retention',
    'prompt_cache_options',
  ]),
  capOutputTokens: capOpenAIChatOutputTokens,
  setPromptCacheKey: setOpenAIPromptCacheKey,
  upstreamQuirks: openAIChatUpstreamQuirks,
  createPassthroughStream: createOpenAIChatPassthroughStream,
  describeOpenAPI: describeOpenAIChatOpenAPI,
};
