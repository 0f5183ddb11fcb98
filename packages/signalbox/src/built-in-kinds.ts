import type { UpstreamKind } from '@signalbox/core';
import { azureOpenAIKind } from '@signalbox/kind-azure-openai';

/** The clouds an upstream's `kind` may name out of the box: Azure OpenAI. */
export const builtInKinds: readonly UpstreamKind[] = [azureOpenAIKind];
