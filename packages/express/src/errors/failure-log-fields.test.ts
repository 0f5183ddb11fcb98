import { createUpstreamError, GatewayError } from '@signalbox/core';
import { causeLogFields, describeTextForLog, failureLogFields, failureLogMessage } from './failure-log-fields';

const QUOTED_PROMPT = 'Your input "book a table for two under the name Ada Lovelace" is not allowed.';

describe('failureLogFields', () => {
  it('keeps an upstream’s status, type, code and request id, and only the length and digest of its message', () => {
    const failure = createUpstreamError({ status: 500, type: 'server_error', code: 'boom', message: QUOTED_PROMPT, requestId: 'req_up_1' });
    const fields = failureLogFields(failure);

    expect(fields).toEqual({
      code: 'UPSTREAM_FAILED',
      status: 502,
      upstream: { status: 500, type: 'server_error', code: 'boom', requestId: 'req_up_1', message: describeTextForLog(QUOTED_PROMPT) },
    });
    expect(JSON.stringify(fields)).not.toContain('Ada Lovelace');
    expect(failureLogMessage(failure)).toBe('upstream failure (UPSTREAM_FAILED)');
  });

  it('gives the same digest for the same message, so failures can be grouped', () => {
    expect(describeTextForLog(QUOTED_PROMPT)).toEqual(describeTextForLog(QUOTED_PROMPT));
    expect(describeTextForLog(QUOTED_PROMPT)).toEqual({ chars: QUOTED_PROMPT.length, sha256: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(describeTextForLog(QUOTED_PROMPT).sha256).not.toBe(describeTextForLog(`${QUOTED_PROMPT} `).sha256);
  });

  it('logs a cause by its name, code and stack frames, never its message (JSON.parse quotes the text it read)', () => {
    let cause: unknown;
    try {
      JSON.parse('{"prompt": "the secret recipe for grandmother’s plum cake" oops');
    } catch (error) {
      cause = error;
    }
    const failure = GatewayError.from(cause);
    const fields = failureLogFields(failure);

    expect(fields).toMatchObject({ code: 'INTERNAL_ERROR', status: 500, cause: { type: 'SyntaxError', message: { chars: expect.any(Number) } } });
    expect((fields.cause as { stack: string }).stack).toMatch(/^at /);
    expect(JSON.stringify(fields)).not.toContain('plum cake');
    expect(failureLogMessage(failure)).toBe('Internal gateway error.');
  });

  it('keeps the code of a transport error and of the reason it wraps', () => {
    const reason = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const fields = causeLogFields(new TypeError('fetch failed', { cause: reason }));

    expect(fields).toMatchObject({ type: 'TypeError', cause: { type: 'Error', code: 'ECONNREFUSED' } });
  });

  it('cuts the gateway’s own message to 300 characters', () => {
    const failure = new GatewayError({ code: 'NO_ACCOUNT_AVAILABLE', message: 'x'.repeat(1_000) });
    expect(failureLogMessage(failure)).toBe(`${'x'.repeat(300)}… (+700 chars)`);
  });
});
