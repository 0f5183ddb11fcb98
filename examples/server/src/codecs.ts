import { anthropicMessagesCodec } from '@signalbox/codec-anthropic-messages';
import { geminiCodec } from '@signalbox/codec-google-gemini';
import { openAIChatCodec } from '@signalbox/codec-openai-chat';
import { openAIResponsesCodec } from '@signalbox/codec-openai-responses';
import type { Codec, UpstreamKind } from '@signalbox/core';
import { azureOpenAIKind } from '@signalbox/kind-azure-openai';
import { bedrockKind } from '@signalbox/kind-bedrock';
import { vertexKind } from '@signalbox/kind-vertex';

/** The host wires concrete codecs into the gateway; the engine and middlewares import none. */
export const codecs: readonly Codec[] = [openAIResponsesCodec, anthropicMessagesCodec, openAIChatCodec, geminiCodec];

/** The clouds an upstream's `kind` may name: Azure OpenAI, Amazon Bedrock and Google Vertex AI. */
export const kinds: readonly UpstreamKind[] = [azureOpenAIKind, bedrockKind, vertexKind];
