import { z } from 'zod';
import { geminiContentSchema, geminiResponseSchema } from '../gemini-api';
import { geminiRequestSchema } from '../request/gemini-request-schema';

/**
 * Gemini's client-facing shapes as the gateway's OpenAPI document shows them: the request is the
 * decoder's own schema, answers are described as the encoders write them (objects open, as
 * Google's grow).
 * @see https://ai.google.dev/api/generate-content
 */

/** A `generateContent` / `streamGenerateContent` body. */
export const geminiRequestBodySchema = geminiRequestSchema;

/** A `GenerateContentResponse`: a JSON answer, one chunk of a stream, or `{ error }` for a failure after the first chunk. */
export const geminiAnswerSchema = geminiResponseSchema;
export const geminiChunkSchema = z.union([geminiResponseSchema, z.looseObject({ error: z.looseObject({ code: z.int(), message: z.string(), status: z.string() }) })]);

/** A `countTokens` body: `contents`, or a whole `generateContentRequest`. */
export const geminiCountTokensRequestSchema = z.strictObject({
  contents: z.array(geminiContentSchema).optional(),
  generateContentRequest: z.looseObject({ contents: z.array(geminiContentSchema) }).optional(),
});

/** A `countTokens` answer: the gateway's estimate. */
export const geminiCountTokensSchema = z.object({ totalTokens: z.int() });

/** `GET /v1beta/models`: the routes the key may use, as `models/{id}` resources. */
export const geminiModelListSchema = z.object({
  models: z.array(
    z.looseObject({
      name: z.string().meta({ description: 'The route\'s model ID as a resource name, `models/{id}`.' }),
      displayName: z.string(),
      supportedGenerationMethods: z.array(z.string()),
    }),
  ),
});

/** Google's error envelope, with the gateway's service code and request id in its details and at the top level. */
export const geminiErrorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.int().meta({ description: 'The HTTP status.' }),
      message: z.string(),
      status: z.string().meta({ description: 'Google\'s canonical name for the status, e.g. `INVALID_ARGUMENT`, `RESOURCE_EXHAUSTED`.' }),
      details: z.array(z.looseObject({ '@type': z.string() })).meta({ description: 'A `google.rpc.ErrorInfo` (`reason`: the service code) and a `google.rpc.RequestInfo` (`requestId`).' }),
    }),
    code: z.string().meta({ description: 'The gateway\'s stable service code (docs/errors.md).' }),
    request_id: z.string(),
  })
  .meta({ description: 'An error in Google\'s envelope, with the gateway\'s service code and request id.' });
