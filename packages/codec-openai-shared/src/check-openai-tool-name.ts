import { unsupportedParameter } from '@signalbox/core';

const OPENAI_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * OpenAI accepts tool names of at most 64 letters, digits, `_` and `-`; Anthropic allows 128. A
 * longer or other name would be an upstream 400, and shortening it would need the calls mapped back,
 * so the gateway refuses it itself, naming the tool.
 * @see https://platform.openai.com/docs/api-reference/chat (`tools[].function.name`)
 */
export function checkOpenAIToolName(name: string, index: number): string {
  if (OPENAI_TOOL_NAME.test(name)) return name;
  throw unsupportedParameter(
    ['tools', index, 'name'],
    "this model's upstream speaks an OpenAI protocol, which needs tool names of 1–64 letters, digits, '_' or '-'",
  );
}
