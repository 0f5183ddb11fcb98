import type { TokenCredentialOptions } from '@azure/identity';
import { openKeyCredential, type UpstreamKind } from '@signalbox/core';
import { checkEntraAuthSettings, entraAuthSettingsSchema } from './entra-auth-settings';
import { openEntraCredential } from './open-entra-credential';

export type AzureOpenAIKindOptions = {
  /** Options for `@azure/identity`'s token requests: a proxy (`proxyOptions`), trusted CAs (`tlsOptions`), retries. */
  identityOptions?: TokenCredentialOptions;
};

/**
 * Azure OpenAI's v1 API (`https://{resource}.openai.azure.com/openai/v1`), which serves Responses
 * and Chat Completions at the OpenAI paths with no `api-version`; the model a call names is the
 * deployment's name. A credential is an `api-key` read from its variable, or (`auth.type: "entra"`)
 * a Microsoft Entra ID token for the Cognitive Services scope, kept fresh ahead of its expiry.
 * @see https://learn.microsoft.com/azure/ai-foundry/openai/api-version-lifecycle
 */
export function createAzureOpenAIKind(options: AzureOpenAIKindOptions = {}): UpstreamKind {
  return {
    name: 'azure-openai',
    protocols: ['openai-responses', 'openai-chat'],
    checkAuth: checkEntraAuthSettings,
    open(opening) {
      const { environment } = opening;
      return {
        openCredential(source) {
          if (source.auth === undefined) return openKeyCredential(source, environment, { kind: 'header', header: 'api-key' });
          return openEntraCredential(entraAuthSettingsSchema.parse(source.auth), {
            environment,
            now: opening.now,
            rememberSecret: opening.rememberSecret,
            identityOptions: options.identityOptions ?? {},
          });
        },
      };
    },
  };
}

/** The Azure OpenAI kind with `@azure/identity`'s default HTTP options. */
export const azureOpenAIKind: UpstreamKind = createAzureOpenAIKind();
