import type { ConversationCodec } from '@signalbox/core';
import { expandOpenAIResponsesRequest } from './expand-openai-responses-request';
import { openAIResponsesInputItemsOf, openAIResponsesOutputItemsOf } from './openai-responses-input-items';
import {
  decodeOpenAIResponsesItemQuery,
  encodeOpenAIResponsesDeleted,
  encodeOpenAIResponsesItemPage,
  openAIResponsesIdOf,
  openAIResponsesNotFound,
  openAIResponsesResponseOfAnswer,
  openAIResponsesResponseOfStreamFrame,
} from './openai-responses-stored-wire';
import { readOpenAIResponsesReferences } from './read-openai-responses-references';

/**
 * The Responses protocol's conversation state, as the gateway serves it on every route: `store`,
 * `previous_response_id` and `item_reference` in requests, the response object of answers and
 * terminal stream events, and the shapes of `GET`/`DELETE /v1/responses/{id}` and its input items.
 * @see https://platform.openai.com/docs/guides/conversation-state
 */
export const openAIResponsesConversation: ConversationCodec = {
  readReferences: readOpenAIResponsesReferences,
  expandRequest: expandOpenAIResponsesRequest,
  inputItemsOf: openAIResponsesInputItemsOf,
  outputItemsOf: openAIResponsesOutputItemsOf,
  responseOfAnswer: openAIResponsesResponseOfAnswer,
  responseOfStreamFrame: openAIResponsesResponseOfStreamFrame,
  responseIdOf: openAIResponsesIdOf,
  notFound: openAIResponsesNotFound,
  decodeItemQuery: decodeOpenAIResponsesItemQuery,
  encodeDeleted: encodeOpenAIResponsesDeleted,
  encodeItemPage: encodeOpenAIResponsesItemPage,
};
