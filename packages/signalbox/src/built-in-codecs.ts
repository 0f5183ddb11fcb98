import { anthropicMessagesCodec } from '@signalbox/codec-anthropic-messages';
import { geminiCodec } from '@signalbox/codec-google-gemini';
import { openAIChatCodec } from '@signalbox/codec-openai-chat';
import { openAIResponsesCodec } from '@signalbox/codec-openai-responses';
import type { Codec } from '@signalbox/core';

/** The four protocols the gateway speaks out of the box: Responses, Messages, Chat Completions, Gemini. */
export const builtInCodecs: readonly Codec[] = [openAIResponsesCodec, anthropicMessagesCodec, openAIChatCodec, geminiCodec];
