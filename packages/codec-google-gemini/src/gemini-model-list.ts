import type { JSONObject, ModelInfo } from '@signalbox/core';

/**
 * `GET /v1beta/models` in Gemini's list shape: each route as a `models/{id}` resource that
 * generates content and counts tokens (`models.list()` of the Google SDKs reads `models[].name`).
 * @see https://ai.google.dev/api/models#method:-models.list
 */
export function encodeGeminiModelList(models: readonly ModelInfo[]): JSONObject {
  return {
    models: models.map(model => ({
      name: `models/${model.id}`,
      baseModelId: model.id,
      version: '001',
      displayName: model.id,
      ...(model.description !== undefined && { description: model.description }),
      supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
    })),
  };
}
