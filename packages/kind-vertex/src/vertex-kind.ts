import type { JSONObject, UpstreamKind } from '@signalbox/core';
import type { OAuth2ClientOptions } from 'google-auth-library';
import { checkGoogleAuthSettings, googleAuthSettingsSchema } from './google-auth-settings';
import { openGoogleCredential } from './open-google-credential';
import { vertexTokenCount } from './vertex-token-count';
import { GEMINI_PROTOCOL, vertexGeminiPath, vertexPath } from './vertex-path';

/** The Messages API version Vertex AI serves, sent in the body in place of the `anthropic-version` header's value. */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

const VERTEX_TOKEN_COUNT = vertexTokenCount(VERTEX_ANTHROPIC_VERSION);

export type VertexKindOptions = {
  /** Options for `google-auth-library`'s token requests (gaxios): a proxy, an `agent` with trusted CAs, a `fetchImplementation`. */
  transporterOptions?: OAuth2ClientOptions['transporterOptions'];
};

/**
 * Anthropic's Messages API and Google's Gemini on Google Vertex AI: the base URL is a location's
 * (`https://{region}-aiplatform.googleapis.com/v1/projects/{project}/locations/{region}`). A
 * Messages call is the publisher model's `:rawPredict` or `:streamRawPredict` (answered in Messages
 * SSE), its body the Messages body without `model` and with `anthropic_version`; a Gemini call is
 * Google's publisher model's `:generateContent` or `:streamGenerateContent?alt=sse`, its body as
 * the codec wrote it. A credential is a Google
 * OAuth access token, kept fresh ahead of its expiry: from `auth.keyFile`, the key file whose path is
 * in the credential's `apiKeyEnv` variable, or Application Default Credentials.
 * @see https://docs.anthropic.com/en/api/claude-on-vertex-ai
 */
export function createVertexKind(options: VertexKindOptions = {}): UpstreamKind {
  return {
    name: 'vertex',
    protocols: ['anthropic-messages', GEMINI_PROTOCOL],
    checkAuth: checkGoogleAuthSettings,
    open(opening) {
      const gemini = opening.protocol === GEMINI_PROTOCOL;
      return {
        ...(gemini ? { path: vertexGeminiPath } : { path: vertexPath, prepareBody: vertexBody, countTokens: VERTEX_TOKEN_COUNT }),
        openCredential(source) {
          const settings = googleAuthSettingsSchema.parse(source.auth ?? { type: 'google' });
          // A credential of a pool names its service account's key file by variable.
          if (source.apiKeyEnv !== undefined && settings.keyFile === undefined) {
            const keyFile = opening.environment[source.apiKeyEnv];
            if (!keyFile) return { headers: {}, secrets: [], missing: true };
            settings.keyFile = keyFile;
          }
          return openGoogleCredential(settings, {
            environment: opening.environment,
            now: opening.now,
            rememberSecret: opening.rememberSecret,
            transporterOptions: options.transporterOptions,
          });
        },
      };
    },
  };
}

/** The Vertex AI kind with `google-auth-library`'s default HTTP options. */
export const vertexKind: UpstreamKind = createVertexKind();

/** The Messages body as Vertex AI takes it: the model is in the URL, the API version in the body. */
function vertexBody(body: JSONObject): JSONObject {
  const { model: _model, ...rest } = body;
  return { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...rest };
}
