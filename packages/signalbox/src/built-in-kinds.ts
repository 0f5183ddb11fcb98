import type { UpstreamKind } from '@signalbox/core';
import { azureOpenAIKind } from '@signalbox/kind-azure-openai';
import { bedrockKind } from '@signalbox/kind-bedrock';
import { vertexKind } from '@signalbox/kind-vertex';

/** The clouds an upstream's `kind` may name out of the box: Azure OpenAI, Amazon Bedrock and Google Vertex AI. */
export const builtInKinds: readonly UpstreamKind[] = [azureOpenAIKind, bedrockKind, vertexKind];
