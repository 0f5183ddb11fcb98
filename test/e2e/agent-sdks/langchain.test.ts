import { ChatAnthropic } from '@langchain/anthropic';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessageChunk, HumanMessage, type AIMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { DEFAULT_ROUTES } from './default-routes';
import { createRecordingFetch, expectToolRoundTrip, type RecordedRequest } from './record-requests';
import { useOfflineGateway } from './use-offline-gateway';
import { createWeatherTool, WEATHER_PROMPT, WEATHER_TOOL, weatherInput } from './weather-tool';

type Recorder = ReturnType<typeof createRecordingFetch>;

/**
 * A LangChain tool round by hand, as its docs show it: `bindTools`, invoke (or stream and
 * concatenate the chunks), run the tool on the returned tool call to get a `ToolMessage`, and
 * invoke again with the whole history for the answer.
 */
async function runToolRound(model: BaseChatModel, stream: boolean) {
  const weather = createWeatherTool();
  const weatherTool = tool(async input => weather.run(input), {
    name: WEATHER_TOOL.name,
    description: WEATHER_TOOL.description,
    schema: weatherInput,
  });
  const bound = model.bindTools!([weatherTool]);
  const ask = async (messages: BaseMessage[]): Promise<AIMessage> => {
    if (!stream) return bound.invoke(messages);
    let message: AIMessageChunk | undefined;
    for await (const chunk of await bound.stream(messages))
      message = message === undefined ? chunk : message.concat(chunk);
    return message ?? new AIMessageChunk('');
  };
  const history: BaseMessage[] = [new HumanMessage(WEATHER_PROMPT)];
  const call = await ask(history);
  expect(call.tool_calls).toHaveLength(1);
  const toolCall = call.tool_calls![0]!;
  expect(toolCall.name).toBe(WEATHER_TOOL.name);
  expect(weatherInput.safeParse(toolCall.args).success).toBe(true);
  const toolMessage = await weatherTool.invoke({ ...toolCall, type: 'tool_call' });
  expect(toolMessage.tool_call_id).toBe(toolCall.id);
  history.push(call, toolMessage);
  const answer = await ask(history);
  return { call, toolMessage, answer, calls: weather.calls };
}

/** The tool ran once with valid arguments, the second request carried its result, and the answer came from it. */
function expectToolRound(
  outcome: Awaited<ReturnType<typeof runToolRound>>,
  requests: readonly RecordedRequest[],
  path: string,
  stream: boolean,
) {
  expect(outcome.calls).toHaveLength(1);
  const report = WEATHER_TOOL.report(outcome.calls[0]!.city);
  expect(outcome.toolMessage.content).toBe(report);
  expect(outcome.answer.tool_calls ?? []).toEqual([]);
  expect(outcome.answer.text).toContain(report);
  expectToolRoundTrip(requests, path, stream, report);
}

describe.each(DEFAULT_ROUTES)('LangChain tool rounds on %s', route => {
  beforeAll(() => {
    // LangSmith tracing is off unless these ask for it; make sure the environment does not.
    for (const name of ['LANGSMITH_TRACING', 'LANGCHAIN_TRACING_V2', 'LANGCHAIN_TRACING'])
      delete process.env[name];
  });
  const gateway = useOfflineGateway();

  const openai = (recorder: Recorder, useResponsesApi: boolean) =>
    new ChatOpenAI({
      model: route,
      apiKey: gateway.server.demoKey,
      maxRetries: 0,
      useResponsesApi,
      configuration: { baseURL: `${gateway.server.url}/v1`, fetch: recorder.fetch },
    });

  it.each([false, true])(
    '@langchain/openai ChatOpenAI on the Responses API (stream %s): tool call, ToolMessage, answer',
    async stream => {
      const recorder = createRecordingFetch();
      expectToolRound(
        await runToolRound(openai(recorder, true), stream),
        recorder.requests,
        '/v1/responses',
        stream,
      );
    },
  );

  it.each([false, true])(
    '@langchain/openai ChatOpenAI on Chat Completions (stream %s): tool call, ToolMessage, answer',
    async stream => {
      const recorder = createRecordingFetch();
      expectToolRound(
        await runToolRound(openai(recorder, false), stream),
        recorder.requests,
        '/v1/chat/completions',
        stream,
      );
    },
  );

  it.each([false, true])(
    '@langchain/anthropic ChatAnthropic (stream %s): tool call, ToolMessage, answer',
    async stream => {
      const recorder = createRecordingFetch();
      const model = new ChatAnthropic({
        model: route,
        apiKey: gateway.server.demoKey,
        maxRetries: 0,
        anthropicApiUrl: gateway.server.url,
        clientOptions: { fetch: recorder.fetch },
      });
      expectToolRound(await runToolRound(model, stream), recorder.requests, '/v1/messages', stream);
    },
  );
});
