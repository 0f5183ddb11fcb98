export { bedrockKind, BEDROCK_ANTHROPIC_VERSION } from './bedrock-kind';
export { bedrockAuthSettingsSchema, type BedrockAuthSettings } from './bedrock-auth-settings';
