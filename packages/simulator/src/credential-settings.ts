import { asRecord } from './read-text-content';

/** How the simulator treats requests carrying one key, as a provider treats an account's key. */
export type CredentialSettings = {
  /**
   * Requests per minute the key may send: a bucket of this many that refills continuously, as
   * both vendors meter. Past it, 429 with the protocol's rate-limit headers. `0` refuses every request.
   */
  requestsPerMinute?: number;
  /** The wait a 429 announces (`retry-after` and the reset headers); the key then stays refused that long. */
  retryAfterSeconds?: number;
  /** A revoked key gets 401 in the protocol's envelope on every request. */
  revoked?: boolean;
  /** The name the key goes by in `GET /simulator/credentials`; by default a digest of the key, never the key. */
  name?: string;
};

const MAX_NAME_LENGTH = 100;

/** Checks settings from options, the environment or the control endpoint: the settings, or what is wrong with them. */
export function readCredentialSettings(value: unknown): CredentialSettings | string {
  const record = asRecord(value);
  if (record === undefined) return 'credential settings must be an object';
  const settings: CredentialSettings = {};
  for (const [field, entry] of Object.entries(record)) {
    const problem = applySetting(settings, field, entry);
    if (problem !== undefined) return problem;
  }
  return settings;
}

function applySetting(settings: CredentialSettings, field: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  switch (field) {
    case 'requestsPerMinute':
    case 'retryAfterSeconds':
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return `${field} must be a finite number ≥ 0`;
      settings[field] = value;
      return undefined;
    case 'revoked':
      if (typeof value !== 'boolean') return 'revoked must be a boolean';
      settings.revoked = value;
      return undefined;
    case 'name':
      if (typeof value !== 'string' || value === '' || value.length > MAX_NAME_LENGTH) return `name must be a string of 1 to ${MAX_NAME_LENGTH} characters`;
      settings.name = value;
      return undefined;
    default:
      return `unknown credential setting (known: requestsPerMinute, retryAfterSeconds, revoked, name)`;
  }
}
