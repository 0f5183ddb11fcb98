// The Bedrock target's check before it is measured: a few JSON calls and streams through the
// gateway, each signature recomputed by the bench Bedrock upstream, which must have refused none.
// The measured windows then run with only one call in a thousand checked (bedrock-upstream.mjs).
import { FIRST_DELTA, SCENARIOS } from './bench-scenarios.mjs';

/** What the bench Bedrock upstream counted: `{ calls, verified, refused }`. */
export async function readBedrockTally(upstream) {
  const answer = await fetch(`${upstream.url}/bench/tally`);
  if (!answer.ok) throw new Error(`the bench Bedrock upstream's tally answered ${answer.status}`);
  return answer.json();
}

/**
 * Sends `count` JSON requests and `count` streams (`request(scenario)` of the Bedrock target) to
 * `gateway` one after the other; throws unless each is a 200 with the simulated answer's first
 * words and `upstream` checked a signature for each and refused none. Resolves with the tally.
 */
export async function checkBedrockSignatures({ gateway, upstream, request, count = 10 }) {
  const before = await readBedrockTally(upstream);
  for (const scenario of [SCENARIOS.json, SCENARIOS.stream]) {
    const { path, headers, body } = request(scenario);
    for (let sent = 0; sent < count; sent += 1) {
      const answer = await fetch(`${gateway.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
      const text = await answer.text();
      if (answer.status !== 200 || !text.includes(FIRST_DELTA.slice(1, -1))) {
        throw new Error(`the Bedrock target answered ${answer.status}${scenario.stream ? ' (stream)' : ''}: ${text.slice(0, 300)}`);
      }
    }
  }
  const after = await readBedrockTally(upstream);
  const verified = after.verified - before.verified;
  if (after.refused > before.refused || verified < 2 * count) {
    throw new Error(`the bench Bedrock upstream checked ${verified} of ${2 * count} signatures and refused ${after.refused - before.refused}`);
  }
  return after;
}
