import type { UpstreamKind } from '@signalbox/core';
import { azureOpenAIKind } from '@signalbox/kind-azure-openai';
import { bedrockKind } from '@signalbox/kind-bedrock';

/** The clouds an upstream's `kind` may name out of the box: Azure OpenAI and Amazon Bedrock. */
export const builtInKinds: readonly UpstreamKind[] = [azureOpenAIKind, bedrockKind];
