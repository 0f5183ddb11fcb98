import type { Codec } from '@signalbox/core';
import { codecs } from '../../examples/server/src';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';
import { describeExchange, findResponseProblems, type ResponseExpectation } from './check-response';
import type { FuzzTally } from './create-fuzz-tally';
import { sendRawRequest, type RawRequest, type RawResponse } from './send-raw-request';

/** The test gateway plus its recent log lines (for ≥ 500 reports and the per-case prompt-leak check). */
export type FuzzGateway = TestGateway & { logLines: string[] };

const KEPT_LOG_LINES = 200;
const MIN_SECRET_LENGTH = 12;
/**
 * How long to wait for a request's access-log line. It is written as the answer ends, so it is
 * normally there at once; answers that never get one (node's client-error listener) would
 * otherwise stall a case. A line later than this only weakens that case's log check (the log
 * audit at `close()` still sees it).
 */
const ACCESS_LOG_WAIT_MS = 50;

/**
 * The real example server for one fuzz file. Simulator scenario markers are off, so no random
 * prompt can ask the upstream to fail on purpose: every ≥ 500 is the gateway's own. The log audit
 * still sees every line; the latest lines are also kept here so each case can check its own.
 */
export async function startFuzzGateway(): Promise<FuzzGateway> {
  let remember: (text: string) => void = () => undefined;
  const gateway = await startTestGateway({
    simulator: { scenarioDirectives: false },
    codecs: watchCodecsIteratively(codecs, text => remember(text)),
  });
  remember = text => gateway.audit.remember(text);
  const logLines: string[] = [];
  const destination = gateway.audit.destination;
  const write = destination.write.bind(destination) as (chunk: unknown, ...rest: unknown[]) => boolean;
  destination.write = ((chunk: unknown, ...rest: unknown[]) => {
    logLines.push(String(chunk));
    if (logLines.length > KEPT_LOG_LINES) logLines.shift();
    return write(chunk, ...rest);
  }) as typeof destination.write;
  return Object.assign(gateway, { logLines });
}

/** What one exchange must keep besides the response invariants. */
export type ExchangeExpectation = ResponseExpectation & {
  /** Credentials sent in credential headers: they must not reach the logs either (logs never hold credentials). */
  loggedSecrets?: readonly string[];
};

/**
 * Sends one fuzz request, counts its status, and fails (with the exchange and the gateway's error
 * log line in the message) unless the answer keeps every invariant of `findResponseProblems` and
 * the lines logged for it contain no prompt string of the body and no credential. The demo key and
 * the console token are always among the secrets.
 */
export async function exchange(
  gateway: FuzzGateway,
  tally: FuzzTally,
  request: RawRequest,
  expectation: ExchangeExpectation = {},
): Promise<RawResponse> {
  gateway.logLines.length = 0;
  const response = await sendRawRequest(gateway.url, request);
  tally.see(response);
  const always = [gateway.demoKey, gateway.adminToken];
  const problems = findResponseProblems(request, response, {
    ...expectation,
    secrets: [...always, ...(expectation.secrets ?? [])],
  });
  const lines = await linesOfRequest(gateway, request, response);
  problems.push(...findLoggedPrompts(request, lines));
  const log = lines.join('');
  for (const secret of [...always, ...(expectation.loggedSecrets ?? [])]) {
    if (log.includes(secret)) problems.push(`the gateway logged the credential ${secret.slice(0, 8)}…`);
  }
  if (problems.length === 0) return response;
  const errors = lines.filter(line => /"level":(50|60)/.test(line)).map(line => line.slice(0, 2_000));
  throw new Error(
    [
      problems.join('; '),
      describeExchange(request, response),
      ...errors.map(line => `gateway error log: ${line}`),
    ].join('\n'),
  );
}

/**
 * The lines logged since the request was sent, once its access-log line is among them. Answers
 * without a request id never reached the gateway router, and the admin API and `/healthz` sit
 * outside it; requests Node's HTTP parser rejects are answered on the raw socket by the
 * client-error listener, which writes no `Date` header (Node's `http.ServerResponse` always does)
 * and no log line. None of those writes an access-log line, so there is nothing to wait for.
 */
async function linesOfRequest(
  gateway: FuzzGateway,
  request: RawRequest,
  response: RawResponse,
): Promise<string[]> {
  const requestId = response.headers['x-request-id'];
  const answeredByParserErrorListener = response.headers.date === undefined;
  const outsideGateway =
    typeof requestId !== 'string' ||
    answeredByParserErrorListener ||
    /^\/(admin(\/|$|\?)|healthz\/?($|\?))/i.test(request.path);
  const deadline = Date.now() + (outsideGateway ? 0 : ACCESS_LOG_WAIT_MS);
  const logged = () =>
    gateway.logLines.some(line => line.includes('"http request"') && line.includes(String(requestId)));
  while (!logged() && Date.now() < deadline) await new Promise(resolve => setTimeout(resolve, 1));
  return [...gateway.logLines];
}

/** Prompt strings of the request body (as the log audit counts them) that appear in `lines`. */
function findLoggedPrompts(request: RawRequest, lines: readonly string[]): string[] {
  let body: unknown;
  try {
    body = JSON.parse(request.body?.toString('utf8') ?? '');
  } catch {
    return [];
  }
  const strings: string[] = [];
  rememberStrings(body, text => {
    if (text.length >= MIN_SECRET_LENGTH) strings.push(text);
  });
  const log = lines.join('');
  const leaked = strings.filter(
    text => log.includes(text) || log.includes(JSON.stringify(text).slice(1, -1)),
  );
  return leaked.map(
    text =>
      `the gateway logged the prompt string ${JSON.stringify(text.slice(0, 40))} (${text.length} chars)`,
  );
}

/**
 * Body fields that name things rather than carry prompt text: `create-log-audit.ts`'s list less a config
 * change's fields and `previous_response_id` (a refusal quotes it only when it has an ID's shape), so the
 * fuzzer checks more strings than the log audit does.
 */
const NAMING_FIELDS = new Set([
  'model',
  'type',
  'role',
  'name',
  'id',
  'call_id',
  'tool_use_id',
  'tool_call_id',
]);

/**
 * The log audit's codec watch without recursion: `createLogAudit().watchCodecs` walks bodies
 * recursively and overflows the stack on a deeply nested body (a 500 of the test harness, not of
 * the gateway), so the fuzzer hands every prompt string to the audit from this loop instead.
 */
function watchCodecsIteratively(base: readonly Codec[], remember: (text: string) => void): Codec[] {
  return base.map(codec => ({
    ...codec,
    decodeRequest: (...args: Parameters<Codec['decodeRequest']>) => (rememberStrings(args[0], remember), codec.decodeRequest(...args)),
  }));
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
