import type { ProviderPreset } from './provider-preset';

/**
 * The clouds companies buy models through, each an upstream kind of its own, with a base URL made
 * from the few names the operator knows: the Azure resource, the AWS region, the Google Cloud
 * project and region (`global` for Vertex AI's global endpoint).
 */
export const cloudPresets: Readonly<Record<string, ProviderPreset>> = {
  'azure-openai': {
    kind: 'azure-openai',
    protocol: 'openai-responses',
    baseURL: { place: ['resource'], make: ({ resource }) => `https://${resource}.openai.azure.com/openai/v1` },
    apiKeyEnv: 'AZURE_OPENAI_API_KEY',
    documentation: 'https://learn.microsoft.com/azure/ai-foundry/openai/api-version-lifecycle',
  },
  bedrock: {
    kind: 'bedrock',
    protocol: 'anthropic-messages',
    baseURL: { place: ['region'], make: ({ region }) => `https://bedrock-runtime.${region}.amazonaws.com` },
    // Without a key of its own, an upstream signs with SigV4 for its region, credentials from the AWS chain.
    auth(own, place) {
      const auth = own ?? { type: 'aws' };
      return auth['type'] === 'aws' && auth['region'] === undefined && place.region !== undefined ? { ...auth, region: place.region } : { ...auth };
    },
    documentation: 'https://docs.aws.amazon.com/general/latest/gr/bedrock.html',
  },
  vertex: {
    kind: 'vertex',
    protocol: 'anthropic-messages',
    baseURL: { place: ['project', 'region'], make: ({ project, region }) => `https://${vertexHost(region)}/v1/projects/${project}/locations/${region}` },
    documentation: 'https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/use-claude',
  },
};

/** Vertex AI's global endpoint has no region in its host; every other location does. */
function vertexHost(region: string): string {
  return region === 'global' ? 'aiplatform.googleapis.com' : `${region}-aiplatform.googleapis.com`;
}
