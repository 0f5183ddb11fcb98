import { formatFieldPath, type FieldPath } from './field-path';
import { GatewayError } from './gateway-error';
import { boundClientText, quoteClientValue } from '../redact/quote-client-value';

/**
 * A 400 `UNSUPPORTED_PARAMETER` for a field the client's protocol allows but the gateway or the
 * route's upstream cannot serve (server-side state, vendor file ids, built-in tools, several
 * choices). One wording, naming the field and why:
 * `Unsupported parameter 'tools.0.type': server tools are not supported by this gateway.`
 *
 * The path is cut like any client value (an array index or a key the client chose may be long).
 *
 * @param reason the why, as a sentence fragment starting in lower case, without a final period.
 */
export function unsupportedParameter(path: FieldPath, reason: string): GatewayError {
  const param = formatFieldPath(path);
  return new GatewayError({ code: 'UNSUPPORTED_PARAMETER', message: `Unsupported parameter ${quoteClientValue(param)}: ${reason}.`, param: boundClientText(param) });
}
