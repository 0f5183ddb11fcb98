import { keyPrefix, looksLikeApiKey } from '@signalbox/accounts';
import { headerValue, REDACTED, secretRecogniser, type HeaderMap, type ProtocolDescriptor, type SecretRecogniser } from '@signalbox/core';
import { loggedHeaderValue } from './failure-log-fields';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The headers that say how a client spoke the interface's protocol, as a refusal's debug line shows
 * them: the credential headers the codec's descriptor names (and `Authorization`, which a caller may
 * have sent in their place), the version header and its aliases, and the diagnostic headers (beta
 * flags, organization). A credential is shown as the visible prefix of a gateway key (`sbx-AbCdEfGh…`,
 * what the admin API and the panel show for the key) or as `[redacted]` for anything else; other
 * values are scrubbed by `secrets` and cut short. Only headers the client sent appear.
 */
export function protocolHeaderFields(headers: HeaderMap, descriptor: ProtocolDescriptor, secrets: SecretRecogniser = secretRecogniser): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const name of credentialHeaders(descriptor)) {
    const value = headerValue(headers, name);
    if (value !== undefined) fields[name] = redactCredential(value);
  }
  const shown = descriptor.version ? [descriptor.version.header, ...descriptor.version.aliases, ...descriptor.diagnosticHeaders] : descriptor.diagnosticHeaders;
  for (const name of shown) {
    const value = headerValue(headers, name);
    if (value !== undefined && !(name in fields)) fields[name] = loggedHeaderValue(value, secrets);
  }
  return fields;
}

function credentialHeaders(descriptor: ProtocolDescriptor): readonly string[] {
  return descriptor.credential.kind === 'header' ? [descriptor.credential.header, 'authorization'] : ['authorization'];
}

/** `Bearer sbx-AbCdEfGh…` for a gateway key, `Bearer [redacted]` or `[redacted]` for anything else. */
function redactCredential(value: string): string {
  const bearer = BEARER.exec(value);
  if (bearer) return `Bearer ${visiblePart(bearer[1]!)}`;
  return visiblePart(value.trim());
}

function visiblePart(secret: string): string {
  return looksLikeApiKey(secret) ? `${keyPrefix(secret)}…` : REDACTED;
}
