import type { ProtocolDescriptor } from '@signalbox/core';

/**
 * Gemini's generateContent over HTTP: the model and the framing in the path, the key in
 * `x-goog-api-key` (or the `key` query parameter), no version header.
 *
 * @see https://ai.google.dev/api/generate-content
 * @see https://ai.google.dev/gemini-api/docs/api-key
 */
export const geminiDescriptor: ProtocolDescriptor = {
  interfaceName: 'gemini',
  vendor: 'gcp.gemini',
  generationPath: '/v1beta/models/{model}:generateContent',
  streamGenerationPath: '/v1beta/models/{model}:streamGenerateContent',
  tokenCountPath: '/v1beta/models/{model}:countTokens',
  modelsPath: '/v1beta/models',
  // The Google SDKs call `/v1beta` or, by their `apiVersion` (the default of @google/genai 3), `/v1`.
  pathPrefixAliases: { '/v1beta/': '/v1/' },
  upstreamPath: '/models',
  upstreamCallPath: ({ model, stream }) =>
    `/models/${encodeURIComponent(model)}${stream ? ':streamGenerateContent?alt=sse' : ':generateContent'}`,
  credential: {
    kind: 'header',
    header: 'x-goog-api-key',
    queryParameter: 'key',
    bearerRefusedHint: '`Authorization: Bearer` is not accepted on this endpoint: send the key in `x-goog-api-key`.',
  },
  requestIdHeaders: ['x-request-id'],
  upstreamRequestIdHeaders: ['x-request-id'],
  diagnosticHeaders: ['x-goog-api-client'],
  // The Google SDKs describe themselves in these.
  clientInfoHeaders: ['x-goog-api-client'],
  signatureFields: {
    contents: 'the conversation',
    systemInstruction: 'system text',
    generationConfig: 'the output limit',
  },
  foreignFieldHints: {
    'the conversation': 'the conversation goes in `contents`',
    instructions: 'instructions go in `systemInstruction`',
    'system text': 'system text goes in `systemInstruction`',
    'the output limit': 'the output limit is `generationConfig.maxOutputTokens`',
    'a stored conversation': 'send the whole conversation in `contents`',
    'stop sequences': 'stop sequences go in `generationConfig.stopSequences`',
    'structured output': 'structured output is `generationConfig.responseMimeType` with `responseJsonSchema`',
    reasoning: 'reasoning is set with `generationConfig.thinkingConfig`',
    'the reasoning effort': 'the effort is `generationConfig.thinkingConfig.thinkingLevel`',
    'the number of answers': 'the number of answers is `generationConfig.candidateCount`',
  },
  // Only Google's clients send `x-goog-api-key`, call `/v1beta/models` or a `/v1/models/…:method` path.
  recognizes: ({ path, headerNames }) =>
    headerNames.has('x-goog-api-key') || /^\/v1beta\/models(\/|$)/i.test(path) || /^\/v1\/models\/[^/]+:/i.test(path) ? 2 : 0,
};
