import OpenAI from 'openai';
import type { ResponseCreateParamsNonStreaming, ResponseFunctionToolCall } from 'openai/resources/responses/responses';
import { useOpenAIGateway } from '../helpers/use-openai-gateway';

/**
 * Requests shaped like the ones Codex sends on every turn (`client_metadata`, `include`, `store`,
 * `prompt_cache_key`, `text.verbosity`, `namespace` tools and, by default, `web_search`), through
 * the real `openai` SDK. `client_metadata` is not in the SDK's types, so the body is cast.
 */
const SAME_PROTOCOL_ROUTE = 'sim-via-responses';
const TRANSLATED_ROUTES = ['sim-via-chat', 'sim-via-messages'];

const lookupSchema = { type: 'object', properties: { customer: { type: 'string' } }, required: ['customer'] };
const namespaceTool = {
  type: 'namespace',
  name: 'crm',
  description: 'Customer records',
  tools: [{ type: 'function', name: 'lookup_customer', description: 'Find a customer by name', parameters: lookupSchema, strict: false }],
};
const shellTool = { type: 'function', name: 'shell', description: 'Run a command', parameters: { type: 'object', properties: { command: { type: 'string' } } }, strict: false };

function codexRequest(model: string, options: { webSearch: boolean }): ResponseCreateParamsNonStreaming {
  return {
    model,
    instructions: 'You are a coding agent.',
    input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Look up the customer Oslo Freight' }] }],
    tools: [namespaceTool, shellTool, ...(options.webSearch ? [{ type: 'web_search' }] : [])],
    tool_choice: 'auto',
    parallel_tool_calls: false,
    store: false,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: 'thread-7f3a',
    text: { verbosity: 'low' },
    client_metadata: { 'x-codex-installation-id': 'install-1' },
  } as unknown as ResponseCreateParamsNonStreaming;
}

describe('Codex-shaped Responses requests through the openai SDK', () => {
  const gateway = useOpenAIGateway();

  it('are forwarded with every field, namespace and web_search tools included, to a Responses upstream', async () => {
    const { data, response } = await gateway.client.responses.create(codexRequest(SAME_PROTOCOL_ROUTE, { webSearch: true })).withResponse();
    expect(response.status).toBe(200);
    expect(data.status).toBe('completed');
    expect(response.headers.get('x-signalbox-warnings')).toBeNull();
  });

  it('replaying a web_search_call item are forwarded to a Responses upstream and refused elsewhere with a 400 naming it', async () => {
    const replay = (model: string, webSearch: boolean) => {
      const request = codexRequest(model, { webSearch });
      const searched = { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'Oslo Freight' } };
      return { ...request, input: [...(request.input as unknown[]), searched] } as unknown as ResponseCreateParamsNonStreaming;
    };
    const forwarded = await gateway.client.responses.create(replay(SAME_PROTOCOL_ROUTE, true));
    expect(forwarded.status).toBe('completed');

    // Without the tool itself, so that the item is what the refusal names.
    const failure = await gateway.client.responses.create(replay('sim-via-chat', false)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    const error = failure as InstanceType<typeof OpenAI.BadRequestError>;
    expect(error.status).toBe(400);
    expect(error.message).toContain("'web_search_call'");
    expect(error.message).toContain('routes whose upstream speaks the Responses API');
  });

  it('forcing web_search by tool_choice are forwarded to a Responses upstream and refused elsewhere with a 400 on tool_choice', async () => {
    const forcing = (model: string) =>
      ({ ...codexRequest(model, { webSearch: true }), tool_choice: { type: 'web_search' } }) as unknown as ResponseCreateParamsNonStreaming;
    const forwarded = await gateway.client.responses.create(forcing(SAME_PROTOCOL_ROUTE));
    expect(forwarded.status).toBe('completed');
    for (const model of TRANSLATED_ROUTES) {
      const failure = await gateway.client.responses.create(forcing(model)).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
      const error = failure as InstanceType<typeof OpenAI.BadRequestError>;
      expect([error.status, error.param]).toEqual([400, 'tool_choice']);
      expect(error.message).toContain("tool_choice of type 'web_search' forces a tool");
    }
  });

  describe.each(TRANSLATED_ROUTES)('on %s (an upstream of another protocol)', model => {
    it('succeed with a warning for each dropped field when only droppable fields are present', async () => {
      const before = gateway.server.simulator.requests().length;
      const { data, response } = await gateway.client.responses.create(codexRequest(model, { webSearch: false })).withResponse();
      expect(response.status).toBe(200);
      expect(data.status).toBe('completed');
      const warnings = response.headers.get('x-signalbox-warnings') ?? '';
      for (const field of ['client_metadata', 'include', 'text']) {
        expect(warnings).toContain(`${field} (unsupported-field)`);
      }
      // The gateway keeps the response itself (`store`), whatever the upstream speaks: nothing is dropped.
      expect(warnings).not.toContain('store (unsupported-field)');
      // The prompt cache key goes on to a Chat upstream; Messages has no such field, and it is only a hint.
      expect(warnings).not.toContain('prompt_cache_key');
      const [upstream] = gateway.server.simulator.requests().slice(before);
      expect(upstream!.fields?.includes('prompt_cache_key')).toBe(model === 'sim-via-chat');
    });

    it('succeed with the offered web_search tool dropped and named in the warnings (Codex offers it on every turn)', async () => {
      const { data, response } = await gateway.client.responses.create(codexRequest(model, { webSearch: true })).withResponse();
      expect(response.status).toBe(200);
      expect(data.status).toBe('completed');
      expect((response.headers.get('x-signalbox-warnings') ?? '').split(', ')).toContain('tools: web_search (unsupported-field)');
    });
  });

  it.each(['sim-via-chat', 'sim-via-messages'])('give a namespaced call back under its namespace on %s (JSON and stream)', async model => {
    const request = codexRequest(model, { webSearch: false });
    const response = await gateway.client.responses.create(request);
    const call = response.output.find((item): item is ResponseFunctionToolCall => item.type === 'function_call');
    expect(call).toMatchObject({ type: 'function_call', name: 'lookup_customer', namespace: 'crm', status: 'completed' });
    expect(JSON.parse(call!.arguments)).toEqual({ customer: expect.any(String) });
    expect(response.tools[0]).toMatchObject({ type: 'namespace', name: 'crm', tools: [{ type: 'function', name: 'lookup_customer' }] });

    const final = await gateway.client.responses.stream({ ...request, stream: true }).finalResponse();
    const streamed = final.output.find(item => item.type === 'function_call');
    expect(streamed).toMatchObject({ name: 'lookup_customer', namespace: 'crm' });

    const followUp = await gateway.client.responses.create({
      ...request,
      input: [
        ...(request.input as unknown[]),
        { type: 'function_call', call_id: call!.call_id, name: 'lookup_customer', namespace: 'crm', arguments: call!.arguments },
        { type: 'function_call_output', call_id: call!.call_id, output: 'Oslo Freight, customer since 2019' },
      ],
    } as unknown as ResponseCreateParamsNonStreaming);
    expect(followUp.status).toBe('completed');
    expect(followUp.output_text).toContain('customer since 2019');
  });
});
