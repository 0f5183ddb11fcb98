import { decodeOpenAIError, encodeOpenAIError, encodeOpenAIModelList } from '@switchyard/codec-openai-shared';
import { createOpenAIResponsesPassthroughStream } from './stream/create-openai-responses-passthrough-stream';
import { createDroppedOptionsDescriber, type Codec } from '@switchyard/core';
import { openAIResponsesDescriptor } from './openai-responses-descriptor';
import { capOpenAIResponsesOutputTokens } from './request/cap-openai-responses-output-tokens';
import { decodeOpenAIResponsesRequest } from './request/decode-openai-responses-request';
import { encodeOpenAIResponsesRequest } from './request/encode-openai-responses-request';
import { decodeOpenAIResponsesResponse } from './response/decode-openai-responses-response';
import { encodeOpenAIResponsesResponse } from './response/encode-openai-responses-response';
import { createOpenAIResponsesStreamDecoder } from './stream/decode-openai-responses-stream';
import { createOpenAIResponsesStreamEncoder } from './stream/encode-openai-responses-stream';

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
  describeDroppedOptions: createDroppedOptionsDescriber([
    'stream_options',
    'store',
    'include',
    'prompt_cache_key',
    'prompt_cache_retention',
    'prompt_cache_options',
  ]),
  capOutputTokens: capOpenAIResponsesOutputTokens,
  createPassthroughStream: createOpenAIResponsesPassthroughStream,
};
