import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import type { OpenAIProvider } from '@ai-sdk/openai';
import type { ToolLoopOutcome } from './vercel-ai-sdk-tool-loop';
import { createWeatherTool, WEATHER_PROMPT, WEATHER_TOOL, weatherInput } from './weather-tool';

// Mastra reports feature usage to its telemetry host unless this is set; the tests stay on 127.0.0.1.
process.env.MASTRA_TELEMETRY_DISABLED = '1';

type MastraModel = ConstructorParameters<typeof Agent>[0]['model'];

type MastraStep = {
  text: string;
  toolCalls: ReadonlyArray<{ payload: { toolName: string; args?: unknown } }>;
  toolResults: ReadonlyArray<{ payload: { result?: unknown } }>;
};

/**
 * A Mastra agent's own loop (`agent.generate` or `agent.stream` with `maxSteps: 5`) with one tool,
 * asking for `get_weather` by name. The model is an AI SDK model, as Mastra takes them; its steps are
 * returned in the AI SDK loop's shape so the same assertions apply.
 */
export async function runMastraLoop(
  model: ReturnType<OpenAIProvider['chat']> | ReturnType<OpenAIProvider['responses']>,
  mode: 'generate' | 'stream',
  providerOptions?: Record<string, Record<string, boolean>>,
): Promise<ToolLoopOutcome> {
  const weather = createWeatherTool();
  const agent = new Agent({
    id: 'weather-agent',
    name: 'Weather agent',
    instructions: 'Answer questions about the weather.',
    // Mastra 1.71 type-checks models against its own bundled copy of the AI SDK provider types,
    // older than the one @ai-sdk/openai 4.0.118 builds on; at run time it takes the model as is.
    model: model as unknown as MastraModel,
    tools: {
      [WEATHER_TOOL.name]: createTool({
        id: WEATHER_TOOL.name,
        description: WEATHER_TOOL.description,
        inputSchema: weatherInput,
        execute: async input => weather.run(input),
      }),
    },
  });
  const options = { maxSteps: 5, providerOptions };
  if (mode === 'generate') {
    const result = await agent.generate(WEATHER_PROMPT, options);
    // Mastra reports a failed step in `error` and returns what it has so far.
    if (result.error !== undefined) throw result.error;
    return finishOutcome(toLoopSteps(result.steps), result.text, result.finishReason, weather.calls, false);
  }
  const result = await agent.stream(WEATHER_PROMPT, options);
  let textAfterToolResult = '';
  let toolResults = 0;
  for await (const chunk of result.fullStream) {
    if (chunk.type === 'error') throw chunk.payload.error;
    if (chunk.type === 'tool-result') toolResults += 1;
    if (chunk.type === 'text-delta' && toolResults > 0) textAfterToolResult += chunk.payload.text;
  }
  const steps = toLoopSteps(await result.steps);
  expect(textAfterToolResult).toBe(steps.at(-1)?.text);
  return finishOutcome(steps, await result.text, await result.finishReason, weather.calls, true);
}

/**
 * Mastra's `text` is every step's text joined after `generate` (the words before a tool call
 * included) and the last step's after `stream`; either way it ends with the final answer. The
 * outcome's `text` is the last step's, as in the AI SDK.
 */
function finishOutcome(
  steps: ToolLoopOutcome['steps'],
  text: string,
  finishReason: string | undefined,
  toolCalls: ToolLoopOutcome['toolCalls'],
  streamed: boolean,
): ToolLoopOutcome {
  expect(text.endsWith(steps.at(-1)?.text ?? '')).toBe(true);
  return { steps, text: steps.at(-1)?.text ?? '', finishReason: finishReason ?? '', toolCalls, streamed };
}

function toLoopSteps(steps: readonly MastraStep[]): ToolLoopOutcome['steps'] {
  return steps.map(step => ({
    text: step.text,
    toolCalls: step.toolCalls.map(call => ({ toolName: call.payload.toolName, input: call.payload.args })),
    toolResults: step.toolResults.map(result => ({ output: result.payload.result })),
  }));
}
