import { anthropicMessagesCodec } from '@switchyard/codec-anthropic-messages';
import { openAIChatCodec } from '@switchyard/codec-openai-chat';
import { openAIResponsesCodec } from '@switchyard/codec-openai-responses';
import type { Codec } from '@switchyard/core';

/** The host wires concrete codecs into the gateway; the engine and middlewares import none. */
export const codecs: readonly Codec[] = [openAIResponsesCodec, anthropicMessagesCodec, openAIChatCodec];
