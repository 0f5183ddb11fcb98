import {
  Agent,
  OpenAIChatCompletionsModel,
  run,
  setDefaultOpenAIClient,
  setTracingDisabled,
  tool,
  type Model,
} from '@openai/agents';
import OpenAI from 'openai';
import { startTestGateway, type TestGateway } from '../../helpers/start-test-gateway';
import { DEFAULT_ROUTES } from './default-routes';
import { createRecordingFetch, expectToolRoundTrip, forbidRemoteFetch, type RecordedRequest } from './record-requests';
import { createWeatherTool, WEATHER_PROMPT, WEATHER_TOOL, weatherInput } from './weather-tool';

/**
 * The OpenAI Agents SDK's own runner (`run()`) with one function tool, asking for it by name: the
 * SDK calls the model, runs the tool, sends its output back and stops at the final message. The
 * model is either the SDK's default (a Responses model on the default client) or an explicit Chat
 * Completions model. Tracing is off, so nothing leaves 127.0.0.1.
 */
async function runAgent(model: string | Model, stream: boolean) {
  const weather = createWeatherTool();
  const agent = new Agent({
    name: 'Weather agent',
    instructions: 'Answer questions about the weather.',
    model,
    tools: [
      tool({
        name: WEATHER_TOOL.name,
        description: WEATHER_TOOL.description,
        parameters: weatherInput,
        execute: input => weather.run(input),
      }),
    ],
  });
  if (!stream) {
    const result = await run(agent, WEATHER_PROMPT, { maxTurns: 5 });
    return { result, calls: weather.calls, streamedText: undefined };
  }
  const result = await run(agent, WEATHER_PROMPT, { maxTurns: 5, stream: true });
  let streamedText = '';
  for await (const text of result.toTextStream()) streamedText += text;
  await result.completed;
  return { result, calls: weather.calls, streamedText };
}

/** The run called `get_weather` once with valid arguments, and its final output came from the tool's result. */
function expectWeatherRun(
  outcome: Awaited<ReturnType<typeof runAgent>>,
  requests: readonly RecordedRequest[],
  path: string,
) {
  const { result, calls } = outcome;
  const stream = outcome.streamedText !== undefined;
  expect(calls).toHaveLength(1);
  expect(weatherInput.safeParse(calls[0]).success).toBe(true);
  const report = WEATHER_TOOL.report(calls[0]!.city);
  // The model may say a few words before its call (a preamble message); the tool round comes next, the answer last.
  const types = result.newItems.map(item => item.type).filter(type => type !== 'reasoning_item');
  expect(types.slice(types.indexOf('tool_call_item'))).toEqual([
    'tool_call_item',
    'tool_call_output_item',
    'message_output_item',
  ]);
  expect(types.filter(type => type === 'tool_call_item')).toHaveLength(1);
  const output = result.newItems.find(item => item.type === 'tool_call_output_item');
  expect(output?.type === 'tool_call_output_item' && output.output).toBe(report);
  expect(result.finalOutput).toContain(report);
  if (outcome.streamedText !== undefined) expect(outcome.streamedText).toContain(result.finalOutput);
  expectToolRoundTrip(requests, path, stream, report);
}

/**
 * One gateway and one default client for the whole file: the SDK's default model provider keeps
 * the first client it was given, as an application that calls `setDefaultOpenAIClient` once at
 * start-up would.
 */
describe('OpenAI Agents SDK tool loops', () => {
  let server: TestGateway;
  let network: ReturnType<typeof forbidRemoteFetch>;
  let client: OpenAI;
  const recorder = createRecordingFetch();
  beforeAll(async () => {
    network = forbidRemoteFetch();
    setTracingDisabled(true);
    server = await startTestGateway();
    client = new OpenAI({
      baseURL: `${server.url}/v1`,
      apiKey: server.demoKey,
      maxRetries: 0,
      fetch: recorder.fetch,
    });
    setDefaultOpenAIClient(client);
  });
  beforeEach(() => {
    recorder.requests.length = 0;
  });
  afterAll(async () => {
    await server.close(1_000);
    expect(network.restore()).toEqual([]);
  });

  describe.each(DEFAULT_ROUTES)('on %s', route => {
    it.each([false, true])(
      'default Responses model (stream %s): runs get_weather, then answers from its result',
      async stream => {
        expectWeatherRun(await runAgent(route, stream), recorder.requests, '/v1/responses');
      },
    );

    it.each([false, true])(
      'OpenAIChatCompletionsModel (stream %s): runs get_weather, then answers from its result',
      async stream => {
        expectWeatherRun(
          await runAgent(new OpenAIChatCompletionsModel(client, route), stream),
          recorder.requests,
          '/v1/chat/completions',
        );
      },
    );
  });
});
