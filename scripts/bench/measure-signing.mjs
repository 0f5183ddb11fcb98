// The cost of a cloud kind's per-call auth on the request path: the CPU time of the Bedrock kind's
// `authorize` (SigV4 over the call's final bytes, credentials from the AWS SDK's default chain, here
// the environment) per call, for bodies of a few sizes, against the default kind's static headers,
// which add nothing per call. Run after `pnpm run build`:
//
//   node scripts/bench/measure-signing.mjs [--calls=20000]
import { bedrockKind } from '../../packages/kind-bedrock/dist/index.js';

const calls = Number(process.argv.find(argument => argument.startsWith('--calls='))?.slice('--calls='.length) ?? 20_000);
process.env.AWS_ACCESS_KEY_ID = 'AKIAMEASURE000000000';
process.env.AWS_SECRET_ACCESS_KEY = 'measure/secret/key/measure/secret/key0000';
const baseURL = 'https://bedrock-runtime.us-east-1.amazonaws.com';
const opening = { upstream: 'bedrock', baseURL, protocol: 'anthropic-messages', environment: process.env, now: Date.now, rememberSecret() {} };
const credential = bedrockKind.open(opening).openCredential({ name: 'default', auth: { type: 'aws' } });
const url = `${baseURL}/model/${encodeURIComponent('us.anthropic.claude-sonnet-4-5-20250929-v1:0')}/invoke`;

/** A Messages body of about `bytes` bytes. */
const bodyOf = bytes => JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 1024, messages: [{ role: 'user', content: 'x'.repeat(bytes) }] });

// The first call waits for the credentials; the runs below measure signing alone.
await credential.authorize({ method: 'POST', url, headers: {}, body: bodyOf(10) });
console.log(`Bedrock SigV4 per call (CPU time of this process; ${calls} calls per size, a twentieth of that from 100 kB):`);
for (const bytes of [1_000, 10_000, 100_000, 1_000_000]) {
  const body = bodyOf(bytes);
  const count = bytes >= 100_000 ? Math.ceil(calls / 20) : calls;
  const started = process.cpuUsage();
  const wall = performance.now();
  for (let call = 0; call < count; call += 1) await credential.authorize({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body });
  const cpu = process.cpuUsage(started);
  const perCall = (cpu.user + cpu.system) / count;
  console.log(`  body ${String(bytes).padStart(9)} B: ${perCall.toFixed(1)} µs CPU, ${((performance.now() - wall) * 1000 / count).toFixed(1)} µs wall`);
}
