import { z } from 'zod';

/**
 * The one tool every agent SDK test offers: the same name, description and schema in each SDK's own
 * tool format, so the loops differ only by the SDK. The simulated model calls a tool when the prompt
 * names it, so `WEATHER_PROMPT` asks for `get_weather` by name.
 */
export const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'Current weather for a city',
  /** What the tool returns; the simulated model quotes the start of a tool result in its answer. */
  report: (city: string) => `Sunny and 21 degrees in ${city}`,
} as const;

export const WEATHER_PROMPT = 'Use the get_weather tool to look up the weather in Oslo';

/** The tool's arguments as a zod schema (the SDKs that take zod turn it into JSON schema). */
export const weatherInput = z.object({ city: z.string().min(1) });

/** The same arguments as a plain JSON schema, for the SDKs and checks that take one. */
export const WEATHER_JSON_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string', minLength: 1 } },
  required: ['city'],
  additionalProperties: false,
} as const;

/**
 * A tool implementation that remembers each call's arguments after checking them against the
 * schema, so a test can assert the SDK really ran the tool with valid arguments.
 */
export function createWeatherTool() {
  const calls: Array<{ city: string }> = [];
  return {
    calls,
    run(input: unknown): string {
      const { city } = weatherInput.parse(input);
      calls.push({ city });
      return WEATHER_TOOL.report(city);
    },
  };
}
