import type { Codec, Protocol } from '@switchyard/core';
import { codecs } from '../../examples/server/src';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';
import { assertSoundResponse, type ResponseExpectation } from './check-response';
import type { FuzzTally } from './create-fuzz-tally';
import { sendRawRequest, type RawRequest, type RawResponse } from './send-raw-request';

/** The test gateway plus the error-level lines it logged, newest last (for ≥ 500 reports). */
export type FuzzGateway = TestGateway & { errorLines: string[] };

const KEPT_ERROR_LINES = 20;

/**
 * The real example server for one fuzz file. Simulator scenario markers are off, so no random
 * prompt can ask the upstream to fail on purpose: every ≥ 500 is the gateway's own. The log audit
 * still sees every line; error lines are also kept so a failure can show the gateway's own cause.
 */
export async function startFuzzGateway(): Promise<FuzzGateway> {
  let remember: (text: string) => void = () => undefined;
  const gateway = await startTestGateway({
    simulator: { scenarioDirectives: false },
    codecs: watchCodecsIteratively(codecs, text => remember(text)),
  });
  remember = text => gateway.audit.remember(text);
  const errorLines: string[] = [];
  const destination = gateway.audit.destination;
  const write = destination.write.bind(destination) as (chunk: unknown, ...rest: unknown[]) => boolean;
  destination.write = ((chunk: unknown, ...rest: unknown[]) => {
    const line = String(chunk);
    if (/"level":(50|60)/.test(line)) errorLines.push(line.slice(0, 2_000));
    if (errorLines.length > KEPT_ERROR_LINES) errorLines.shift();
    return write(chunk, ...rest);
  }) as typeof destination.write;
  return Object.assign(gateway, { errorLines });
}

/**
 * Sends one fuzz request, counts its status, and fails (with the exchange and any gateway error
 * log line in the message) unless the answer keeps every invariant of `findResponseProblems`.
 * The demo key is always among the secrets that must not come back.
 */
export async function exchange(
  gateway: FuzzGateway,
  tally: FuzzTally,
  request: RawRequest,
  expectation: ResponseExpectation = {},
): Promise<RawResponse> {
  const errorsBefore = gateway.errorLines.length;
  const response = await sendRawRequest(gateway.url, request);
  tally.see(response);
  try {
    assertSoundResponse(request, response, { ...expectation, secrets: [gateway.demoKey, ...(expectation.secrets ?? [])] });
  } catch (error) {
    const logged = response.status >= 500 ? gateway.errorLines.slice(errorsBefore > KEPT_ERROR_LINES - 1 ? -1 : errorsBefore) : [];
    if (logged.length > 0 && error instanceof Error) error.message += `\ngateway error log: ${logged.join('\n')}`;
    throw error;
  }
  return response;
}

/** Body fields that name things rather than carry prompt text; the same list as `create-log-audit.ts`. */
const NAMING_FIELDS = new Set(['model', 'type', 'role', 'name', 'id', 'call_id', 'tool_use_id', 'tool_call_id']);

/**
 * The log audit's codec watch without recursion: `createLogAudit().watchCodecs` walks bodies
 * recursively and overflows the stack on a deeply nested body (a 500 of the test harness, not of
 * the gateway), so the fuzzer hands every prompt string to the audit from this loop instead.
 */
function watchCodecsIteratively(base: Record<Protocol, Codec>, remember: (text: string) => void): Record<Protocol, Codec> {
  const watched = Object.entries(base).map(([protocol, codec]) => [
    protocol,
    { ...codec, decodeRequest: (body: unknown) => (rememberStrings(body, remember), codec.decodeRequest(body)) },
  ]);
  return Object.fromEntries(watched) as Record<Protocol, Codec>;
}

function rememberStrings(body: unknown, remember: (text: string) => void): void {
  const pending: unknown[] = [body];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') remember(value);
    else if (Array.isArray(value)) pending.push(...value);
    else if (typeof value === 'object' && value !== null) {
      for (const [field, item] of Object.entries(value)) if (!NAMING_FIELDS.has(field)) pending.push(item);
    }
  }
}
