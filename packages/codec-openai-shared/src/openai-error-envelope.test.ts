import { createOpenAIBodyError } from './openai-error-envelope';

describe('createOpenAIBodyError', () => {
  it.each([
    [{ code: 'server_is_overloaded', message: 'Busy' }, 'UPSTREAM_OVERLOADED'],
    [{ type: 'slow_down' }, 'UPSTREAM_OVERLOADED'],
    [{ type: 'requests', code: 'rate_limit_exceeded' }, 'UPSTREAM_RATE_LIMITED'],
    [{ type: 'rate_limit_error' }, 'UPSTREAM_RATE_LIMITED'],
    [{ type: 'overloaded_error' }, 'UPSTREAM_FAILED'],
    [{ message: 'model is loading' }, 'UPSTREAM_FAILED'],
  ])('reads %j, reported without a status, in OpenAI’s words as %s', (details, code) => {
    const error = createOpenAIBodyError(details);
    expect(error.code).toBe(code);
    expect(error.upstream).toEqual(details);
  });
});
