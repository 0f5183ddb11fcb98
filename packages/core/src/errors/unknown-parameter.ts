import { formatFieldPath, type FieldPath } from './field-path';
import { GatewayError } from './gateway-error';
import { boundClientText, quoteClientValue } from '../redact/quote-client-value';

/**
 * A 400 `INVALID_REQUEST` for a field the protocol does not define. OpenAI and Anthropic both
 * refuse unknown fields rather than ignore them, so the gateway does too, in one wording:
 * `Unknown parameter: 'frobnicate'.`, with the path in `param`. The name is the client's: a
 * path longer than a real field's is cut, in the message and in `param`.
 */
export function unknownParameter(path: FieldPath): GatewayError {
  const param = formatFieldPath(path);
  return new GatewayError({ code: 'INVALID_REQUEST', message: `Unknown parameter: ${quoteClientValue(param)}.`, param: boundClientText(param) });
}
