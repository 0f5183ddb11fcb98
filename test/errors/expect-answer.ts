import type { InterfaceClient, InterfaceName } from './interface-clients';

/** What a finished plain-text answer looks like on each interface, as its SDK returns it. */
const PLAIN_ANSWER: Record<InterfaceName, Record<string, unknown>> = {
  responses: { object: 'response', status: 'completed' },
  messages: { type: 'message', role: 'assistant', stop_reason: 'end_turn' },
  chat: { object: 'chat.completion', choices: [expect.objectContaining({ finish_reason: 'stop' })] },
};

/**
 * Checks that the client's latest call was served: HTTP 200 and a finished answer of the
 * interface's own kind for `model` (the happy path next to a refusal, so the refusal was the
 * condition's doing and not a broken route).
 */
export function expectAnswered(client: InterfaceClient, answer: unknown, model: string): void {
  expect(client.last().status).toBe(200);
  expect(answer).toMatchObject({ ...PLAIN_ANSWER[client.name], model });
}
