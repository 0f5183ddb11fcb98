import { anthropicMessagesCodec } from '@signalbox/codec-anthropic-messages';
import { openAIChatCodec } from '@signalbox/codec-openai-chat';
import { openAIResponsesCodec } from '@signalbox/codec-openai-responses';
import type { Codec } from '@signalbox/core';

/** The host wires concrete codecs into the gateway; the engine and middlewares import none. */
export const codecs: readonly Codec[] = [openAIResponsesCodec, anthropicMessagesCodec, openAIChatCodec];
