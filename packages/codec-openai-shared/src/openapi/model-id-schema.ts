import { z } from 'zod';

/**
 * A request's `model`: one of the gateway's route model IDs (an enum, so an API client can offer
 * them), or any non-empty string when the document is built without a route table.
 */
export function modelIdSchema(modelIds: readonly string[]): z.ZodType<string> {
  const [first, ...rest] = modelIds;
  const schema = first === undefined ? z.string().min(1) : z.enum([first, ...rest]);
  return schema.meta({ description: 'A route\'s exact model ID (`GET /v1/models` lists those the key may use).' });
}
