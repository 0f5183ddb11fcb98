import { z } from 'zod';

/** A client's (or the gateway's, to a toy upstream) request: one prompt, answered as text. */
export const toyRequestSchema = z
  .object({
    model: z.string().min(1),
    prompt: z.string(),
    stream: z.boolean().optional(),
  })
  .strict();

/** Why a toy generation stopped. */
export const toyFinishSchema = z.enum(['stop', 'length', 'other']);

/** A JSON answer. */
export const toyResponseSchema = z.object({
  id: z.string(),
  model: z.string(),
  text: z.string(),
  finish: toyFinishSchema,
});

/** The data of an `event: token` frame. */
export const toyTokenSchema = z.object({ text: z.string() });

/** The data of the `event: done` frame that ends a stream. */
export const toyDoneSchema = z.object({ finish: toyFinishSchema });

/** The error envelope, in bodies and in an `event: failure` frame. */
export const toyFailureSchema = z.object({
  failure: z.object({ code: z.string(), message: z.string(), request_id: z.string().optional() }),
});

export type ToyRequest = z.output<typeof toyRequestSchema>;
export type ToyResponse = z.output<typeof toyResponseSchema>;
export type ToyFinish = z.output<typeof toyFinishSchema>;
