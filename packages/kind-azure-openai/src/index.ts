export { azureOpenAIKind, createAzureOpenAIKind, type AzureOpenAIKindOptions } from './azure-openai-kind';
export { AZURE_OPENAI_SCOPE, entraAuthSettingsSchema, type EntraAuthSettings } from './entra-auth-settings';
