import { anthropicMessagesCodec } from '@signalbox/codec-anthropic-messages';
import { geminiCodec } from '@signalbox/codec-google-gemini';
import { openAIChatCodec } from '@signalbox/codec-openai-chat';
import { openAIResponsesCodec } from '@signalbox/codec-openai-responses';
import type { Codec, UpstreamKind } from '@signalbox/core';
import { loadAzureOpenAIKind, loadBedrockKind, loadVertexKind } from './load-on-demand';

/** The host wires concrete codecs into the gateway; the engine and middlewares import none. */
export const codecs: readonly Codec[] = [openAIResponsesCodec, anthropicMessagesCodec, openAIChatCodec, geminiCodec];

/**
 * A kind whose package is loaded when the config first names it (to check an upstream's `auth`,
 * then to open it): until then its name and protocols, all the gateway reads of an unused kind, stand for it.
 */
function kindOnDemand(name: string, protocols: readonly string[], load: () => UpstreamKind): UpstreamKind {
  return { name, protocols, checkAuth: auth => load().checkAuth(auth), open: opening => load().open(opening) };
}

/** The clouds an upstream's `kind` may name: Azure OpenAI, Amazon Bedrock and Google Vertex AI, each loaded when a config names it. */
export const kinds: readonly UpstreamKind[] = [
  kindOnDemand('azure-openai', ['openai-responses', 'openai-chat'], loadAzureOpenAIKind),
  kindOnDemand('bedrock', ['anthropic-messages'], loadBedrockKind),
  kindOnDemand('vertex', ['anthropic-messages', 'google-gemini'], loadVertexKind),
];
