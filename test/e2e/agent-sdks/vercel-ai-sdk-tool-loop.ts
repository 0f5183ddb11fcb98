import { generateText, stepCountIs, streamText, tool, type LanguageModel } from 'ai';
import { expectToolRoundTrip, type RecordedRequest } from './record-requests';
import { createWeatherTool, WEATHER_PROMPT, WEATHER_TOOL, weatherInput } from './weather-tool';

/**
 * A finished tool loop in the AI SDK's terms (other SDKs' loops are mapped to it): its steps, the
 * final step's text and what the tool saw.
 */
export type ToolLoopOutcome = {
  steps: ReadonlyArray<{
    toolCalls: ReadonlyArray<{ toolName: string; input: unknown }>;
    toolResults: ReadonlyArray<{ output: unknown }>;
    text: string;
  }>;
  text: string;
  finishReason: string;
  toolCalls: Array<{ city: string }>;
  /** Whether the loop ran on the streaming API (each request then asks for a stream). */
  streamed: boolean;
};

/**
 * The AI SDK's own multi-step loop (`generateText` or `streamText` with a tool that has `execute`
 * and `stopWhen: stepCountIs(5)`) asking for `get_weather` by name; the SDK runs the tool and sends
 * its result back on its own. `providerOptions` go to the model as given. Retries are off, so a
 * refused step fails at once.
 */
export async function runToolLoop(
  model: LanguageModel,
  mode: 'generate' | 'stream',
  providerOptions?: Parameters<typeof generateText>[0]['providerOptions'],
): Promise<ToolLoopOutcome> {
  const weather = createWeatherTool();
  const tools = {
    [WEATHER_TOOL.name]: tool({
      description: WEATHER_TOOL.description,
      inputSchema: weatherInput,
      execute: async input => weather.run(input),
    }),
  };
  const settings = {
    model,
    tools,
    prompt: WEATHER_PROMPT,
    stopWhen: stepCountIs(5),
    maxRetries: 0,
    maxOutputTokens: 512,
    providerOptions,
  };
  if (mode === 'generate') {
    const result = await generateText(settings);
    return {
      steps: result.steps,
      text: result.text,
      finishReason: result.finishReason,
      toolCalls: weather.calls,
      streamed: false,
    };
  }
  // Errors arrive as `error` parts and are rethrown below; the default handler would only log them.
  const result = streamText({ ...settings, onError: () => undefined });
  let streamedText = '';
  let textAfterToolResult = '';
  let toolResults = 0;
  for await (const part of result.fullStream) {
    if (part.type === 'error') throw part.error;
    if (part.type === 'tool-result') toolResults += 1;
    if (part.type !== 'text-delta') continue;
    streamedText += part.text;
    if (toolResults > 0) textAfterToolResult += part.text;
  }
  const steps = await result.steps;
  expect(streamedText).toBe(steps.map(step => step.text).join(''));
  expect(textAfterToolResult).toBe(steps.at(-1)?.text);
  return {
    steps,
    text: await result.text,
    finishReason: await result.finishReason,
    toolCalls: weather.calls,
    streamed: true,
  };
}

/**
 * The loop took exactly two steps: a `get_weather` call with schema-valid arguments that the SDK
 * executed once, then a final answer (finish reason `stop`) written after, and from, the tool result.
 * The SDK made exactly two POSTs to `path`, and only the second carried the tool's result.
 */
export function expectWeatherLoop(
  outcome: ToolLoopOutcome,
  requests: readonly RecordedRequest[],
  path: string,
): void {
  expect(outcome.steps).toHaveLength(2);
  const [callStep, answerStep] = outcome.steps;
  expect(callStep?.toolCalls).toHaveLength(1);
  expect(callStep?.toolCalls[0]?.toolName).toBe(WEATHER_TOOL.name);
  expect(weatherInput.safeParse(callStep?.toolCalls[0]?.input).success).toBe(true);
  expect(outcome.toolCalls).toEqual([callStep?.toolCalls[0]?.input]);
  const report = WEATHER_TOOL.report(outcome.toolCalls[0]?.city ?? '');
  expect(callStep?.toolResults.map(result => result.output)).toEqual([report]);
  expect(answerStep?.toolCalls).toEqual([]);
  expect(answerStep?.text).toContain(report);
  expect(outcome.text).toBe(answerStep?.text);
  expect(outcome.finishReason).toBe('stop');
  expectToolRoundTrip(requests, path, outcome.streamed, report);
}
