import { invalidParameter } from './invalid-parameter';
import { streamEndedEarly } from './stream-ended-early';
import { unknownParameter } from './unknown-parameter';
import { unsupportedParameter } from './unsupported-parameter';

describe('field errors', () => {
  it('refuses an unknown field as a 400 INVALID_REQUEST in OpenAI’s wording, naming it in param', () => {
    const error = unknownParameter('frobnicate');
    expect([error.status, error.code, error.param, error.message]).toEqual([
      400,
      'INVALID_REQUEST',
      'frobnicate',
      "Unknown parameter: 'frobnicate'.",
    ]);
  });

  it('refuses an unservable field as a 400 UNSUPPORTED_PARAMETER naming its dotted path and the reason', () => {
    const error = unsupportedParameter(['messages', 0, 'content', 1, 'type'], 'audio parts are not supported');
    expect([error.status, error.code, error.param, error.message]).toEqual([
      400,
      'UNSUPPORTED_PARAMETER',
      'messages.0.content.1.type',
      "Unsupported parameter 'messages.0.content.1.type': audio parts are not supported.",
    ]);
  });

  it('takes an already dotted path as it is', () => {
    expect(unsupportedParameter('tools.2.type', 'server tools are not supported').param).toBe('tools.2.type');
  });

  it('refuses a field that breaks a rule in the wording of schema refusals', () => {
    const error = invalidParameter('thinking.budget_tokens', 'must be less than max_tokens');
    expect([error.status, error.code, error.param, error.message]).toEqual([
      400,
      'INVALID_REQUEST',
      'thinking.budget_tokens',
      'Invalid request: thinking.budget_tokens: must be less than max_tokens.',
    ]);
    expect(error.issues).toEqual([{ path: 'thinking.budget_tokens', message: 'must be less than max_tokens' }]);
  });

  it('cuts a field name longer than 200 characters, in the message and in param', () => {
    const name = 'k'.repeat(10_000);
    const unknown = unknownParameter(name);
    expect([unknown.message, unknown.param]).toEqual([`Unknown parameter: '${'k'.repeat(200)}…' (+9800 chars).`, `${'k'.repeat(200)}… (+9800 chars)`]);
    const unsupported = unsupportedParameter(['tools', name], 'not supported');
    expect(unsupported.message).toBe(`Unsupported parameter 'tools.${'k'.repeat(194)}…' (+9806 chars): not supported.`);
    const invalid = invalidParameter(name, 'must be a number');
    expect(invalid.param).toBe(`${'k'.repeat(200)}… (+9800 chars)`);
    expect(invalid.message.length).toBeLessThan(300);
  });

  it('reports a stream cut before its terminal event as a 502 UPSTREAM_FAILED', () => {
    const error = streamEndedEarly();
    expect([error.status, error.code, error.message]).toEqual([
      502,
      'UPSTREAM_FAILED',
      'The upstream stream ended before its terminal event.',
    ]);
  });
});
