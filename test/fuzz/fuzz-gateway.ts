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
  const gateway = await startTestGateway({ simulator: { scenarioDirectives: false } });
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
