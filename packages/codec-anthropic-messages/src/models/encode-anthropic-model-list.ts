import type { JSONObject, ModelInfo } from '@signalbox/core';

/** `GET /v1/models` in Anthropic's page shape (`anthropic.models.list()` reads `data[].id`). */
export function encodeAnthropicModelList(models: readonly ModelInfo[]): JSONObject {
  return {
    data: models.map(model => ({
      type: 'model',
      id: model.id,
      display_name: model.description ?? model.id,
      created_at: new Date(model.createdAt * 1000).toISOString(),
    })),
    has_more: false,
    first_id: models[0]?.id ?? null,
    last_id: models.at(-1)?.id ?? null,
  };
}
