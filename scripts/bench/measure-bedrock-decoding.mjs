// The CPU cost of decoding a streamed answer from a Bedrock-kind upstream against the same answer
// from a Messages upstream: 25 Messages events (20 text deltas) as Bedrock's event-stream `chunk`
// frames through the kind's framer, or as SSE through SSE framing, then the Messages codec's stream
// decoder into the gateway's events. Chunks are one frame each, or cut every 100 bytes. Run after
// `pnpm run build`:
//
//   node scripts/bench/measure-bedrock-decoding.mjs [--streams=20000]
import { anthropicMessagesCodec } from '../../packages/codec-anthropic-messages/dist/index.js';
import { bedrockKind } from '../../packages/kind-bedrock/dist/index.js';
import { createSSEDecoder } from '../../packages/sse/dist/index.js';
import { EventStreamCodec } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';

const streams = Number(process.argv.find(argument => argument.startsWith('--streams='))?.slice('--streams='.length) ?? 20_000);
/** Bedrock's padding field, as the benchmark's Bedrock upstream writes it. */
const PADDING = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123';
const events = [
  { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 25, output_tokens: 1 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  ...Array.from({ length: 20 }, (_, index) => ({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: `word${index} ` } })),
  { type: 'content_block_stop', index: 0 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 20 } },
  { type: 'message_stop' },
];

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const headers = { ':event-type': 'chunk', ':content-type': 'application/json', ':message-type': 'event' };
const frameOf = event =>
  Buffer.from(codec.encode({
    headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, { type: 'string', value }])),
    body: fromUtf8(JSON.stringify({ bytes: Buffer.from(JSON.stringify(event)).toString('base64'), p: PADDING })),
  }));
const sseOf = event => Buffer.from(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
const cutEvery = (chunks, size) => {
  const whole = Buffer.concat(chunks);
  return Array.from({ length: Math.ceil(whole.length / size) }, (_, index) => whole.subarray(index * size, (index + 1) * size));
};

const opened = bedrockKind.open({ upstream: 'bedrock', baseURL: 'http://127.0.0.1:9', protocol: 'anthropic-messages', environment: {}, now: Date.now, rememberSecret() {} });
await opened.createStreamFramer();

/** One stream's chunks through a framer and the codec's decoder; the events made. */
async function decodeStream(chunks, createFramer) {
  const framer = await createFramer();
  const decoder = anthropicMessagesCodec.createStreamDecoder();
  let count = 0;
  for (const chunk of chunks) for (const message of framer.push(chunk)) count += decoder.push(message).length;
  for (const message of framer.end()) count += decoder.push(message).length;
  return count + decoder.end().length;
}

const frames = events.map(frameOf);
const sse = events.map(sseOf);
const cases = [
  ['Bedrock frames, one per chunk', frames, () => opened.createStreamFramer()],
  ['Bedrock frames, cut every 100 B', cutEvery(frames, 100), () => opened.createStreamFramer()],
  ['Messages SSE, one event per chunk', sse, createSSEDecoder],
  ['Messages SSE, cut every 100 B', cutEvery(sse, 100), createSSEDecoder],
];
console.log(`Decoding a 25-event stream (CPU time of this process, ${streams} streams per row after a warm-up):`);
for (const [name, chunks, createFramer] of cases) {
  for (let stream = 0; stream < 2_000; stream += 1) await decodeStream(chunks, createFramer);
  const started = process.cpuUsage();
  for (let stream = 0; stream < streams; stream += 1) await decodeStream(chunks, createFramer);
  const cpu = process.cpuUsage(started);
  console.log(`  ${name.padEnd(34)} ${((cpu.user + cpu.system) / streams).toFixed(1).padStart(7)} µs per stream`);
}
