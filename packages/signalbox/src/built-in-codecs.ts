import { anthropicMessagesCodec } from '@signalbox/codec-anthropic-messages';
import { openAIChatCodec } from '@signalbox/codec-openai-chat';
import { openAIResponsesCodec } from '@signalbox/codec-openai-responses';
import type { Codec } from '@signalbox/core';

/** The three protocols the gateway speaks out of the box: Responses, Messages, Chat Completions. */
export const builtInCodecs: readonly Codec[] = [openAIResponsesCodec, anthropicMessagesCodec, openAIChatCodec];
