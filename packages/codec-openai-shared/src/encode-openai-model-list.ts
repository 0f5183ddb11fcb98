import type { JSONObject, ModelInfo } from '@signalbox/core';

/** `GET /v1/models` in OpenAI's list shape (`openai.models.list()` reads `data[].id`). */
export function encodeOpenAIModelList(models: readonly ModelInfo[]): JSONObject {
  return {
    object: 'list',
    data: models.map(model => ({ id: model.id, object: 'model', created: model.createdAt, owned_by: 'signalbox' })),
  };
}
