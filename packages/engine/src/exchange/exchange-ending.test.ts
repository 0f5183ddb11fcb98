import { GatewayError } from '@signalbox/core';
import { outcomeOf } from './exchange-ending';

describe('outcomeOf', () => {
  const failure = new GatewayError({ code: 'UPSTREAM_FAILED', message: 'The upstream failed.' });

  it('is completed for a clean stop or tool calls, incomplete for a cut answer or one its upstream left unfinished (pause_turn) that reached the client', () => {
    expect(outcomeOf({ unified: 'stop', raw: 'end_turn' }, undefined)).toBe('completed');
    expect(outcomeOf({ unified: 'tool-calls', raw: 'tool_use' }, undefined)).toBe('completed');
    expect(outcomeOf({ unified: 'length', raw: 'max_tokens' }, undefined)).toBe('incomplete');
    expect(outcomeOf({ unified: 'content-filter', raw: 'refusal' }, undefined)).toBe('incomplete');
    expect(outcomeOf({ unified: 'error', raw: 'pause_turn' }, undefined)).toBe('incomplete');
  });

  it('is failed for an answer that ended in an error or without a finish, interrupted when the gateway shut it down', () => {
    expect(outcomeOf({ unified: 'stop', raw: 'end_turn' }, failure)).toBe('failed');
    expect(outcomeOf(undefined, undefined)).toBe('failed');
    expect(outcomeOf(undefined, new GatewayError({ code: 'SHUTTING_DOWN', message: 'The gateway is shutting down.' }))).toBe('interrupted');
  });
});
