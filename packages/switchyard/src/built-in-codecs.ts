import { anthropicMessagesCodec } from '@switchyard/codec-anthropic-messages';
import { openAIChatCodec } from '@switchyard/codec-openai-chat';
import { openAIResponsesCodec } from '@switchyard/codec-openai-responses';
import type { Codec } from '@switchyard/core';

/** The three protocols the gateway speaks out of the box: Responses, Messages, Chat Completions. */
export const builtInCodecs: readonly Codec[] = [openAIResponsesCodec, anthropicMessagesCodec, openAIChatCodec];
