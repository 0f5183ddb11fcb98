import { anthropicMessagesCodec } from '@signalbox/codec-anthropic-messages';
import { openAIChatCodec } from '@signalbox/codec-openai-chat';
import { openAIResponsesCodec } from '@signalbox/codec-openai-responses';
import type { Codec, JSONObject } from '@signalbox/core';
import { listMemberPaths } from '@signalbox/core/testing';
import { createReasoningIssuers } from '../reasoning/create-reasoning-issuers';
import { planReasoningReplay } from '../reasoning/plan-reasoning-replay';
import { prepareUpstreamBody, type UpstreamBodyOptions } from './prepare-upstream-body';
import { withConversationCacheKey } from './with-conversation-cache-key';

/** Where a body carries `cache_control`, in sorted order (encoders and clients order members differently). */
const breakpoints = (body: JSONObject) => listMemberPaths(body, 'cache_control').sort();

/** The options of one request from a client of `inbound`, as the exchange hands them on. */
function optionsFor(inbound: Codec, body: JSONObject, extra: Partial<UpstreamBodyOptions> = {}): UpstreamBodyOptions {
  const { value, warnings } = inbound.decodeRequest(body);
  return { inbound, body, request: value, decodeWarnings: warnings, ...extra };
}

const responsesBody = { model: 'route', input: 'Hi', instructions: 'Be brief.' };
const chatBody = { model: 'route', messages: [{ role: 'user', content: 'Hi' }] };
const messagesBody = {
  model: 'route',
  max_tokens: 256,
  system: 'Be brief.',
  tools: [{ name: 'read', input_schema: { type: 'object' } }],
  messages: [
    { role: 'user', content: 'Read a.txt' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'I should read it.', signature: 'sig-from-a' },
        { type: 'tool_use', id: 'toolu_1', name: 'read', input: {} },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'contents' }] },
  ],
};

describe('prepareUpstreamBody', () => {
  describe('the prompt cache key', () => {
    it('is the client’s own on every OpenAI upstream, forwarded or translated', () => {
      const chat = optionsFor(openAIChatCodec, { ...chatBody, prompt_cache_key: 'client-key' });
      expect(prepareUpstreamBody(chat, { name: 'chat', codec: openAIChatCodec }, 'gpt').body.prompt_cache_key).toBe('client-key');
      expect(prepareUpstreamBody(chat, { name: 'responses', codec: openAIResponsesCodec }, 'gpt').body.prompt_cache_key).toBe('client-key');
      const responses = optionsFor(openAIResponsesCodec, { ...responsesBody, prompt_cache_key: 'client-key' });
      expect(prepareUpstreamBody(responses, { name: 'chat', codec: openAIChatCodec }, 'gpt').body.prompt_cache_key).toBe('client-key');
    });

    it('is the conversation’s key when the client sent none, on a forwarded body too; the client’s own wins', () => {
      for (const [codec, body] of [[openAIResponsesCodec, responsesBody], [openAIChatCodec, chatBody]] as const) {
        const options = optionsFor(codec, body);
        const keyed = { ...options, request: withConversationCacheKey(options.request, 'conversation-7') };
        const forwarded = prepareUpstreamBody(keyed, { name: 'same', codec }, 'gpt');
        expect(forwarded.passthrough).toBe(true);
        expect(forwarded.body).toEqual({ ...body, model: 'gpt', prompt_cache_key: 'conversation-7' });
        const other = codec === openAIChatCodec ? openAIResponsesCodec : openAIChatCodec;
        expect(prepareUpstreamBody(keyed, { name: 'other', codec: other }, 'gpt').body.prompt_cache_key).toBe('conversation-7');
      }
      const own = optionsFor(openAIResponsesCodec, { ...responsesBody, prompt_cache_key: 'client-key' });
      const keyed = { ...own, request: withConversationCacheKey(own.request, 'conversation-7') };
      expect(prepareUpstreamBody(keyed, { name: 'same', codec: openAIResponsesCodec }, 'gpt').body.prompt_cache_key).toBe('client-key');
    });

    it('does not reach a Messages upstream, which has no such field', () => {
      const options = optionsFor(openAIResponsesCodec, { ...responsesBody, prompt_cache_key: 'client-key' });
      const prepared = prepareUpstreamBody(options, { name: 'anthropic', codec: anthropicMessagesCodec }, 'claude');
      expect(prepared.body).not.toHaveProperty('prompt_cache_key');
      expect(prepared.warnings).toEqual([]);
    });
  });

  describe("a route's promptCache: auto", () => {
    it('marks a Messages body from every client protocol that marked nothing, forwarded or translated', () => {
      const target = { name: 'anthropic', codec: anthropicMessagesCodec };
      const forwarded = prepareUpstreamBody(optionsFor(anthropicMessagesCodec, messagesBody, { promptCache: 'auto' }), target, 'claude');
      expect(forwarded.passthrough).toBe(true);
      expect(breakpoints(forwarded.body)).toEqual(['messages.0.content.0', 'messages.2.content.0', 'system.0', 'tools.0']);
      const fromResponses = prepareUpstreamBody(optionsFor(openAIResponsesCodec, responsesBody, { promptCache: 'auto' }), target, 'claude');
      expect(breakpoints(fromResponses.body)).toEqual(['messages.0.content.0', 'system.0']);
      const fromChat = prepareUpstreamBody(optionsFor(openAIChatCodec, chatBody, { promptCache: 'auto' }), target, 'claude');
      expect(breakpoints(fromChat.body)).toEqual(['messages.0.content.0']);
    });

    it('leaves the client’s own breakpoints, and every body when the route does not ask', () => {
      const target = { name: 'anthropic', codec: anthropicMessagesCodec };
      const own = { ...messagesBody, system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }] };
      expect(breakpoints(prepareUpstreamBody(optionsFor(anthropicMessagesCodec, own, { promptCache: 'auto' }), target, 'claude').body)).toEqual([
        'system.0',
      ]);
      expect(breakpoints(prepareUpstreamBody(optionsFor(anthropicMessagesCodec, messagesBody), target, 'claude').body)).toEqual([]);
      expect(breakpoints(prepareUpstreamBody(optionsFor(openAIChatCodec, chatBody, { promptCache: 'off' }), target, 'claude').body)).toEqual([]);
    });

    it('places nothing on an OpenAI upstream, which caches by prefix on its own', () => {
      const options = optionsFor(anthropicMessagesCodec, messagesBody, { promptCache: 'auto' });
      expect(breakpoints(prepareUpstreamBody(options, { name: 'chat', codec: openAIChatCodec }, 'gpt').body)).toEqual([]);
    });
  });

  describe('reasoning signed by another upstream', () => {
    const issuers = createReasoningIssuers();
    issuers.recordProof('sig-from-a', 'a');

    it('goes to that upstream as the client sent it', () => {
      const options = optionsFor(anthropicMessagesCodec, messagesBody);
      const prepared = prepareUpstreamBody({ ...options, replay: planReasoningReplay(options.request, issuers) }, { name: 'a', codec: anthropicMessagesCodec }, 'claude');
      expect(prepared).toEqual({ body: { ...messagesBody, model: 'claude' }, warnings: [], passthrough: true });
    });

    it('goes to any other as assistant text, the request encoded from the IR, the answer still forwarded as written', () => {
      const options = optionsFor(anthropicMessagesCodec, messagesBody);
      const prepared = prepareUpstreamBody({ ...options, replay: planReasoningReplay(options.request, issuers) }, { name: 'b', codec: anthropicMessagesCodec }, 'claude');
      expect(prepared.passthrough).toBe(true);
      expect((prepared.body.messages as JSONObject[])[1]).toEqual({
        role: 'assistant',
        content: [
          { type: 'text', text: 'I should read it.' },
          { type: 'tool_use', id: 'toolu_1', name: 'read', input: {} },
        ],
      });
      expect(JSON.stringify(prepared.body)).not.toContain('sig-from-a');
      expect(prepared.warnings).toEqual([expect.objectContaining({ type: 'lossy-conversion', field: 'messages.reasoning' })]);
    });
  });

  describe('what decoding the client\'s body lost', () => {
    const deferred = { ...messagesBody, tools: [{ name: 'read', input_schema: { type: 'object' }, defer_loading: true }] };
    const lost = { type: 'unsupported-field', field: 'tools.0.defer_loading' };

    it('is no warning when the body goes as the client sent it: the field goes with it', () => {
      const prepared = prepareUpstreamBody(optionsFor(anthropicMessagesCodec, deferred), { name: 'a', codec: anthropicMessagesCodec }, 'claude');
      expect(prepared.passthrough).toBe(true);
      expect((prepared.body.tools as JSONObject[])[0]!.defer_loading).toBe(true);
      expect(prepared.warnings).toEqual([]);
    });

    it('is a warning of every body encoded from the IR', () => {
      expect(prepareUpstreamBody(optionsFor(anthropicMessagesCodec, deferred), { name: 'chat', codec: openAIChatCodec }, 'gpt').warnings).toContainEqual(lost);
      const issuers = createReasoningIssuers();
      issuers.recordProof('sig-from-a', 'a');
      const options = optionsFor(anthropicMessagesCodec, deferred);
      const replayed = prepareUpstreamBody({ ...options, replay: planReasoningReplay(options.request, issuers) }, { name: 'b', codec: anthropicMessagesCodec }, 'claude');
      expect(replayed.warnings).toContainEqual(lost);
    });
  });
});
