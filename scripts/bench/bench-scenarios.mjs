// What the benchmark sends: the targets (the floor, the gateway same-protocol and translated, the
// Portkey peer; with `--bedrock` a Messages client on a Messages route and on a Bedrock route), the scenarios (JSON, 20-delta streams, paced streams) and the request each target
// gets for each, all asking the same simulated model for the same 20-token answer. The simulator
// reads the `[[sim:…]]` markers in the prompt: `tokens=N` sets the answer's length and `slow=MS`
// the pause before each streamed token (packages/simulator/README.md).

/** The targets in table order; `floor` is what every ratio is taken against. */
export const TARGETS = {
  floor: { label: 'raw Node pass-through (floor)' },
  same: { label: 'Signalbox, Chat -> Chat (same protocol)' },
  translated: { label: 'Signalbox, Messages -> Chat (translated)' },
  portkey: { label: 'Portkey gateway 1.15.2 (Chat -> Chat)' },
  messages: { label: 'Signalbox, Messages -> Messages (same protocol)' },
  bedrock: { label: 'Signalbox, Messages -> Bedrock kind (SigV4, event stream)' },
};

/** The model each Messages client target asks for: the route that decides where it goes. */
const MESSAGES_ROUTES = { translated: 'sim-via-chat', messages: 'sim-via-messages', bedrock: 'sim-via-bedrock' };

/** The load scenarios: how many connections and what the simulated answer looks like. */
export const SCENARIOS = {
  json: { label: 'JSON', stream: false, directives: '[[sim:tokens=20]]' },
  stream: { label: '20-delta streams', stream: true, directives: '[[sim:tokens=20]]' },
  paced: { label: 'paced streams (20 deltas 10 ms apart)', stream: true, directives: '[[sim:tokens=20]] [[sim:slow=10]]' },
};

/**
 * Streams held open for the memory measurement: a token every 500 ms for 20 s. Not a silent
 * upstream: the gateway answers with headers only once the first delta is in (until then it may
 * still fail over to another target), so a stream counts as open from its first delta.
 */
export const HELD_STREAM = { stream: true, directives: '[[sim:tokens=120]] [[sim:slow=500]]' };
/**
 * Streams whose deltas come 20 ms apart: the first must reach the client alone, not in the same
 * read as the second (20 ms, not less, so that a busy machine's scheduling does not merge them).
 */
export const SPACED_STREAM = { stream: true, directives: '[[sim:tokens=3]] [[sim:slow=20]]' };

/** The first two deltas of every answer: the simulator's first tokens echo the prompt's first words. */
export const FIRST_DELTA = '"Describe"';
export const SECOND_DELTA = '" how"';

const SYSTEM = 'You are a concise assistant for railway operations staff. Answer in plain words.';
const QUESTION = 'Describe how a railway signalbox sorts freight cars onto the right departure tracks';

/**
 * The request `target` sends for `scenario` (one of SCENARIOS, HELD_STREAM, SPACED_STREAM):
 * `{ path, headers, body }`, the body a JSON string of about 300 bytes. `context` holds the
 * gateway's key and the simulator's URL (Portkey is told where the upstream is per request).
 */
export function requestFor(target, scenario, context) {
  const content = `${QUESTION} ${scenario.directives}`;
  const stream = scenario.stream ? { stream: true } : {};
  if (MESSAGES_ROUTES[target]) {
    return {
      path: '/v1/messages',
      headers: { 'x-api-key': context.key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: MESSAGES_ROUTES[target], max_tokens: 256, system: SYSTEM, messages: [{ role: 'user', content }], ...stream }),
    };
  }
  const chat = model => JSON.stringify({ model, messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content }], ...stream });
  if (target === 'same') return { path: '/v1/chat/completions', headers: { authorization: `Bearer ${context.key}` }, body: chat('sim-via-chat') };
  if (target === 'portkey') {
    const headers = { authorization: `Bearer ${context.upstreamKey}`, 'x-portkey-provider': 'openai', 'x-portkey-custom-host': `${context.simulatorURL}/v1` };
    return { path: '/v1/chat/completions', headers, body: chat('sim-1') };
  }
  return { path: '/v1/chat/completions', headers: { authorization: `Bearer ${context.upstreamKey}` }, body: chat('sim-1') };
}
