import type { CredentialRegistry } from './credential-registry';
import { readCredentialSettings } from './credential-settings';
import { openAIErrorBody } from './error-envelopes';
import type { PromptCache } from './prompt-cache';
import { readRequestBody } from './read-request-body';
import { simulatorError } from './simulator-error';
import type { Exchange } from './track-exchange';
import { writeJson } from './write-json';

/** Paths under this prefix steer the simulator itself; they never reach a protocol. */
export const CONTROL_PATH_PREFIX = '/simulator/';

/** What the control endpoint can read and change. */
export type SimulatorControl = { credentials: CredentialRegistry; promptCache: PromptCache; maxBodyBytes: number };

const MAX_KEY_LENGTH = 1000;

/**
 * The control endpoint, for runs outside the test process: `GET /simulator/credentials` lists each
 * key by name with its settings and stats, `POST /simulator/credentials` sets one key's settings
 * (`{ key, requestsPerMinute?, retryAfterSeconds?, revoked?, name? }`), `DELETE
 * /simulator/prompt-cache` forgets every cached prefix. Errors in the OpenAI envelope; a key is never echoed.
 */
export async function handleControlRequest(exchange: Exchange, pathname: string, control: SimulatorControl): Promise<void> {
  const method = exchange.request.method ?? '';
  if (pathname === `${CONTROL_PATH_PREFIX}credentials`) {
    if (method === 'GET') return writeJson(exchange, 200, { credentials: control.credentials.list() });
    if (method === 'POST') return configureCredential(exchange, control);
    return refuseMethod(exchange, 'GET, POST');
  }
  if (pathname === `${CONTROL_PATH_PREFIX}prompt-cache`) {
    if (method !== 'DELETE') return refuseMethod(exchange, 'DELETE');
    control.promptCache.clear();
    return writeJson(exchange, 200, { cleared: true });
  }
  writeJson(exchange, 404, openAIErrorBody(simulatorError(404, `Unknown control path: ${method} ${pathname.slice(0, 100)}`)));
}

async function configureCredential(exchange: Exchange, control: SimulatorControl): Promise<void> {
  const body = await readRequestBody(exchange.request, control.maxBodyBytes);
  if (!body.ok) return writeJson(exchange, body.status, openAIErrorBody(simulatorError(body.status, body.message)));
  const { key, ...fields } = body.body;
  if (typeof key !== 'string' || key === '' || key.length > MAX_KEY_LENGTH) {
    return badRequest(exchange, `key must be a string of 1 to ${MAX_KEY_LENGTH} characters`, 'key');
  }
  const settings = readCredentialSettings(fields);
  if (typeof settings === 'string') return badRequest(exchange, settings, null);
  if (!control.credentials.configure(key, settings)) return badRequest(exchange, 'too many configured keys', 'key');
  writeJson(exchange, 200, { name: control.credentials.nameOf(key), settings });
}

function badRequest(exchange: Exchange, message: string, param: string | null): void {
  writeJson(exchange, 400, openAIErrorBody(simulatorError(400, message, { param })));
}

function refuseMethod(exchange: Exchange, allow: string): void {
  writeJson(exchange, 405, openAIErrorBody(simulatorError(405, `Use ${allow} on this path.`)), { allow });
}
