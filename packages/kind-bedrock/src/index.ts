export { bedrockKind, BEDROCK_ANTHROPIC_VERSION } from './bedrock-kind';
export { bedrockAuthSettingsSchema, type BedrockAuthSettings } from './bedrock-auth-settings';
export { decodeBedrockStream } from './decode-bedrock-stream';
