import type { ProtocolDescriptor } from '@signalbox/core';

/** The header that carries request ids on the toy protocol, both from the gateway and from a toy upstream. */
export const TOY_REQUEST_ID_HEADER = 'x-toy-request-id';

/**
 * The toy protocol over HTTP: `POST /v1/toy/generate` with `Authorization: Bearer`, its own models
 * list at `GET /v1/toy/models`, request ids in `x-toy-request-id`. Its clients are recognised by
 * the `/v1/toy/` prefix alone, so a wrong path under it is refused in the toy envelope. Its
 * `prompt` is refused on the other endpoints, naming this one; theirs are refused here.
 */
export const toyDescriptor: ProtocolDescriptor = {
  interfaceName: 'toy',
  vendor: 'toy',
  generationPath: '/v1/toy/generate',
  modelsPath: '/v1/toy/models',
  upstreamPath: '/v1/toy/generate',
  credential: { kind: 'bearer' },
  requestIdHeaders: [TOY_REQUEST_ID_HEADER],
  upstreamRequestIdHeaders: [TOY_REQUEST_ID_HEADER],
  diagnosticHeaders: ['x-toy-client'],
  signatureFields: { prompt: 'the conversation' },
  foreignFieldHints: {
    'the conversation': 'the conversation goes in `prompt`',
    instructions: 'instructions go in `prompt` too',
    'system text': 'system text goes in `prompt` too',
  },
  recognizes: ({ path }) => (path.startsWith('/v1/toy/') ? 2 : 0),
};
