import { Writable } from 'node:stream';
import pino from 'pino';
import { accessLoggerOf, createLogger } from './create-logger';

/** A destination that keeps each line written, parsed. */
function collect(): { destination: Writable; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n')) if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  return { destination, lines };
}

/** An access line's fields as the gateway builds them (docs/operations.md, "Logs"): every name it may carry. */
const ACCESS_FIELDS = {
  requestId: 'req_0123456789abcdef01234567',
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  method: 'POST',
  path: '/v1/chat/completions?key=[redacted]',
  keyPrefix: 'sbx-0123abcd',
  route: 'sim-via-chat',
  upstream: 'simulator',
  upstreamModel: 'sim-1',
  upstreamRequestId: 'chatcmpl-0123',
  status: 200,
  outcome: 'completed',
  code: 'UPSTREAM_FAILED',
  attempts: 2,
  stream: false,
  aborted: false,
  latencyMs: 12,
  timeToFirstByteMs: 9,
  inputTokens: 40,
  outputTokens: 20,
  tokensEstimated: false,
  headers: { 'user-agent': 'probe/1.0', 'content-type': 'application/json', 'content-length': '312', accept: '*/*', 'x-stainless-lang': 'js' },
};

describe('accessLoggerOf', () => {
  it('writes an access line byte for byte as the redacting logger does, but its time: none of its fields is a redacted path', () => {
    const redacting: string[] = [];
    const access: string[] = [];
    const oddText = { path: '/v1/"quoted"\\back\nnew line é 🚂', upstreamRequestId: 'x'.repeat(150), latencyMs: 1.5, attempts: undefined };
    for (const fields of [ACCESS_FIELDS, { ...ACCESS_FIELDS, ...oddText }, {}]) {
      createLogger({ level: 'info', destination: { write: (line: string) => redacting.push(line) } }).info(fields, 'http request');
      accessLoggerOf(createLogger({ level: 'info', destination: { write: (line: string) => access.push(line) } })).info(fields, 'http request');
    }

    const withoutTime = (line: string) => line.replace(/,"time":\d+,/, ',"time":0,');
    expect(access.map(withoutTime)).toEqual(redacting.map(withoutTime));
    expect(access).toHaveLength(3);
    expect(JSON.parse(access[0]!)).toEqual({ level: 30, time: expect.any(Number), service: 'signalbox', msg: 'http request', ...ACCESS_FIELDS });
  });

  it('writes no access line when the logger is above info, and follows a change of its level', () => {
    const { destination, lines } = collect();
    const logger = createLogger({ level: 'warn', destination });
    const access = accessLoggerOf(logger);
    access.info(ACCESS_FIELDS, 'http request');
    logger.level = 'info';
    access.info({ requestId: 'req_after' }, 'http request');

    expect(lines).toEqual([expect.objectContaining({ requestId: 'req_after' })]);
  });

  it('goes through pino when the output needs its metadata (a multistream routing lines by level)', () => {
    const { destination, lines } = collect();
    accessLoggerOf(createLogger({ level: 'info', destination: pino.multistream([{ level: 'info', stream: destination }]) })).info(ACCESS_FIELDS, 'http request');

    expect(lines).toEqual([expect.objectContaining({ level: 30, msg: 'http request', ...ACCESS_FIELDS })]);
  });

  it('skips the redaction pass on the lines it writes', () => {
    const { destination, lines } = collect();
    accessLoggerOf(createLogger({ level: 'info', destination })).info({ body: 'not an access field' }, 'http request');

    expect(lines).toEqual([expect.objectContaining({ body: 'not an access field' })]);
  });

  it('leaves every other line of the logger redacted', () => {
    const { destination, lines } = collect();
    const logger = createLogger({ level: 'info', destination });
    accessLoggerOf(logger);
    logger.info({ headers: { authorization: 'Bearer sbx-secret', accept: '*/*' }, body: 'the prompt' }, 'request');

    expect(lines).toEqual([expect.objectContaining({ headers: { authorization: '[redacted]', accept: '*/*' }, body: '[redacted]' })]);
  });

  it("returns a logger it did not make as it is, that logger's own redaction kept", () => {
    const host = { info() {}, warn() {}, error() {} };
    expect(accessLoggerOf(host)).toBe(host);
  });
});
