export { createVertexKind, vertexKind, VERTEX_ANTHROPIC_VERSION, type VertexKindOptions } from './vertex-kind';
export { CLOUD_PLATFORM_SCOPE, googleAuthSettingsSchema, type GoogleAuthSettings } from './google-auth-settings';
