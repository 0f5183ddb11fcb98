import { isJSONObject, type Codec, type GenerationRequest, type TranslationWarning } from '@signalbox/core';

/**
 * The request and client body the upstream gets, carrying the output cap its hold covers: the IR's
 * `maxOutputTokens` for a translated request, the body's own field (`codec.capOutputTokens`) for a
 * same-protocol one, which forwards the client's body. Only ever lowers: the cap is never above the
 * client's own limit. A lowered client limit is reported as a translation warning.
 */
export function applyOutputCap(
  codec: Codec,
  request: GenerationRequest,
  body: unknown,
  cap: number | undefined,
): { request: GenerationRequest; body: unknown; warnings: TranslationWarning[] } {
  if (cap === undefined || (request.maxOutputTokens !== undefined && request.maxOutputTokens <= cap)) {
    return { request, body, warnings: [] };
  }
  const warnings: TranslationWarning[] =
    request.maxOutputTokens === undefined
      ? []
      : [
          {
            type: 'lossy-conversion',
            field: 'maxOutputTokens',
            details: `Lowered from ${request.maxOutputTokens} to ${cap}: the account balance covers no more.`,
          },
        ];
  return {
    request: { ...request, maxOutputTokens: cap },
    body: isJSONObject(body) && codec.capOutputTokens ? codec.capOutputTokens(body, cap) : body,
    warnings,
  };
}
