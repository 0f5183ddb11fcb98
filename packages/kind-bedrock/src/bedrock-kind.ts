import { openKeyCredential, type JSONObject, type UpstreamCall, type UpstreamKind } from '@signalbox/core';
import { bedrockAuthSettingsSchema, checkBedrockAuthSettings } from './bedrock-auth-settings';
import { bedrockTokenCount } from './bedrock-token-count';
import { createBedrockStreamFramer } from './create-bedrock-stream-framer';
import { loadEventStreamCodec } from './load-event-stream-codec';
import { openAWSCredential } from './open-aws-credential';

/** The Messages version Bedrock's Anthropic models take in the body. */
export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

const BEDROCK_TOKEN_COUNT = bedrockTokenCount(BEDROCK_ANTHROPIC_VERSION);

/**
 * Anthropic models on Amazon Bedrock Runtime (`https://bedrock-runtime.{region}.amazonaws.com`):
 * `POST /model/{modelId}/invoke` and `/invoke-with-response-stream`, the model ID or inference
 * profile percent-encoded in the path, the Messages body without `model` and `stream`, its beta
 * flags in the body as `anthropic_beta`. A credential
 * is a Bedrock API key sent as a bearer token, or (`auth.type: "aws"`) SigV4 over every call.
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages.html
 */
export const bedrockKind: UpstreamKind = {
  name: 'bedrock',
  protocols: ['anthropic-messages'],
  checkAuth: checkBedrockAuthSettings,
  open(opening) {
    // The frame codec is loaded now, with the first Bedrock upstream, so no stream waits for it.
    Promise.resolve(loadEventStreamCodec()).catch(() => undefined);
    return {
      path: call => `/model/${encodeURIComponent(call.model)}/${call.stream ? 'invoke-with-response-stream' : 'invoke'}`,
      prepareBody: bedrockBody,
      flagsInBody: ['anthropic-beta'],
      createStreamFramer: async () => createBedrockStreamFramer(await loadEventStreamCodec()),
      countTokens: BEDROCK_TOKEN_COUNT,
      errorTypeHeader: 'x-amzn-errortype',
      openCredential(source) {
        if (source.auth === undefined) return openKeyCredential(source, opening.environment, { kind: 'bearer' });
        return openAWSCredential(bedrockAuthSettingsSchema.parse(source.auth), opening);
      },
    };
  },
};

/** The Messages body as Bedrock takes it: no `model` (it is in the path) or `stream` (so is that), its own version, the betas. */
function bedrockBody(body: JSONObject, call: UpstreamCall): JSONObject {
  const { model: _model, stream: _stream, ...rest } = body;
  const betas = call.flags?.['anthropic-beta'];
  return { anthropic_version: BEDROCK_ANTHROPIC_VERSION, ...rest, ...(betas !== undefined && betas.length > 0 && { anthropic_beta: [...betas] }) };
}
