import { decodeOpenAIError, encodeOpenAIError, encodeOpenAIModelList, setOpenAIPromptCacheKey } from '@signalbox/codec-openai-shared';
import { createOpenAIResponsesPassthroughStream } from './stream/create-openai-responses-passthrough-stream';
import { createDroppedOptionsDescriber, type Codec, type JSONObject, type TranslationWarning } from '@signalbox/core';
import {
  describeDroppedResponsesOnlyTools,
  refuseResponsesOnlyOptions,
  RESPONSES_ONLY_TOOL_CHOICE,
  RESPONSES_ONLY_TOOLS,
} from './request/responses-only-options';
import { openAIResponsesConversation } from './conversation/openai-responses-conversation';
import { openAIResponsesDescriptor } from './openai-responses-descriptor';
import { openAIResponsesCompaction } from './compaction/openai-responses-compaction';
import { describeOpenAIResponsesOpenAPI } from './openapi/describe-openai-responses-openapi';
import { capOpenAIResponsesOutputTokens } from './request/cap-openai-responses-output-tokens';
import { decodeOpenAIResponsesRequest } from './request/decode-openai-responses-request';
import { encodeOpenAIResponsesRequest } from './request/encode-openai-responses-request';
import { decodeOpenAIResponsesResponse } from './response/decode-openai-responses-response';
import { encodeOpenAIResponsesResponse } from './response/encode-openai-responses-response';
import { createOpenAIResponsesStreamDecoder } from './stream/decode-openai-responses-stream';
import { createOpenAIResponsesStreamEncoder } from './stream/encode-openai-responses-stream';
import { openAIResponsesWebSocket } from './web-socket/openai-responses-web-socket';

/**
 * What a route whose upstream speaks another protocol does with the Responses-only fields (kept in
 * `providerOptions['openai-responses']`), in one place and mirrored in the README: replayed
 * built-in tool items and `moderation` would change the answer, so they are refused (400 naming
 * them); offered built-in and custom tools are dropped with one warning each; every other field is
 * dropped with a warning (`x-signalbox-warnings`), except `stream_options` and `store`, honoured
 * on the client side (the gateway keeps stored responses itself).
 */
function describeDroppedResponsesOptions(options: JSONObject): TranslationWarning[] {
  refuseResponsesOnlyOptions(options);
  return [...describeDroppedResponsesOnlyTools(options), ...describeDroppedFields(options)];
}

const describeDroppedFields = createDroppedOptionsDescriber(['stream_options', 'store', RESPONSES_ONLY_TOOLS, RESPONSES_ONLY_TOOL_CHOICE]);

/** The OpenAI Responses protocol (`POST /v1/responses`) on both sides of the gateway. */
export const openAIResponsesCodec: Codec = {
  protocol: 'openai-responses',
  descriptor: openAIResponsesDescriptor,
  decodeRequest: decodeOpenAIResponsesRequest,
  encodeRequest: encodeOpenAIResponsesRequest,
  decodeResponse: decodeOpenAIResponsesResponse,
  encodeResponse: encodeOpenAIResponsesResponse,
  createStreamDecoder: createOpenAIResponsesStreamDecoder,
  createStreamEncoder: createOpenAIResponsesStreamEncoder,
  decodeError: decodeOpenAIError,
  encodeError: encodeOpenAIError,
  encodeModelList: encodeOpenAIModelList,
  describeDroppedOptions: describeDroppedResponsesOptions,
  capOutputTokens: capOpenAIResponsesOutputTokens,
  setPromptCacheKey: setOpenAIPromptCacheKey,
  createPassthroughStream: createOpenAIResponsesPassthroughStream,
  conversation: openAIResponsesConversation,
  compaction: openAIResponsesCompaction,
  describeOpenAPI: describeOpenAIResponsesOpenAPI,
  webSocket: openAIResponsesWebSocket,
};
