import { countPromptCharacters, createPromptBlockList, type PromptBlockList } from './prompt-blocks';
import { readOpenAIPromptCache } from './read-openai-prompt-cache';
import { asNumber, asRecord, asString, readTextContent } from './read-text-content';
import type { SimulatedRequest, SimulatedTool, SimulatedToolChoice } from './simulated-request';
import { simulatorError, type SimulatorError } from './simulator-error';

type InputSummary = { lastUserText: string; trailingToolResults: string[]; toolResultsSinceUserText: number };

/** `POST /v1/responses` body → SimulatedRequest. Lenient: only a missing `model` is refused. */
export function readResponsesRequest(body: Record<string, unknown>): SimulatedRequest | SimulatorError {
  const model = asString(body.model);
  if (model === undefined || model === '') {
    return simulatorError(400, "Missing required parameter: 'model'.", { param: 'model', code: 'missing_required_parameter' });
  }
  const prompt = createPromptBlockList();
  prompt.addTools(body.tools);
  const instructions = asString(body.instructions);
  if (instructions !== undefined) prompt.add('instructions', instructions);
  const input = summarizeInput(prompt, body.input);
  const reasoningEffort = asString(asRecord(body.reasoning)?.effort);
  const include = Array.isArray(body.include) ? body.include : [];
  return {
    model,
    stream: body.stream === true,
    lastUserText: input.lastUserText,
    inputCharacters: countPromptCharacters(prompt.blocks),
    promptBlocks: prompt.blocks,
    ...readOpenAIPromptCache(body),
    maxOutputTokens: asNumber(body.max_output_tokens),
    stopSequences: [],
    tools: readTools(body.tools),
    toolChoice: readToolChoice(body.tool_choice),
    parallelToolCalls: body.parallel_tool_calls !== false,
    trailingToolResults: input.trailingToolResults,
    toolResultsSinceUserText: input.toolResultsSinceUserText,
    reasoning: reasoningEffort !== undefined && reasoningEffort !== 'none',
    includeEncryptedReasoning: include.includes('reasoning.encrypted_content'),
    includeStreamUsage: false,
    body,
  };
}

function summarizeInput(prompt: PromptBlockList, input: unknown): InputSummary {
  if (typeof input === 'string') {
    prompt.add('user:message', input);
    return { lastUserText: input, trailingToolResults: [], toolResultsSinceUserText: 0 };
  }
  const summary: InputSummary = { lastUserText: '', trailingToolResults: [], toolResultsSinceUserText: 0 };
  if (!Array.isArray(input)) return summary;
  for (const entry of input) {
    const item = asRecord(entry);
    if (item === undefined) continue;
    if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') {
      const output = typeof item.output === 'string' ? item.output : readTextContent(item.output);
      prompt.add(String(item.type), output);
      summary.trailingToolResults.push(output);
      summary.toolResultsSinceUserText += 1;
      continue;
    }
    summary.trailingToolResults = [];
    prompt.add(`${String(item.role ?? '')}:${String(item.type ?? 'message')}`, itemText(item));
    if (item.role === 'user') {
      const text = readTextContent(item.content);
      if (text !== '') {
        summary.lastUserText = text;
        summary.toolResultsSinceUserText = 0;
      }
    }
  }
  return summary;
}

function itemText(item: Record<string, unknown>): string {
  if (item.type === 'function_call') return `${asString(item.name) ?? ''}${asString(item.arguments) ?? ''}`;
  if (item.type === 'reasoning') return readTextContent(item.summary);
  return readTextContent(item.content);
}

/**
 * The function tools the model may call: top-level ones and those inside `namespace` tools (called
 * with their namespace). Other tool types (built-in tools such as `web_search`, custom tools) are
 * accepted and never called.
 */
function readTools(tools: unknown, namespace?: string): SimulatedTool[] {
  if (!Array.isArray(tools)) return [];
  const result: SimulatedTool[] = [];
  for (const entry of tools) {
    const tool = asRecord(entry);
    const name = asString(tool?.name);
    if (tool?.type === 'namespace' && namespace === undefined && name !== undefined) result.push(...readTools(tool.tools, name));
    if (tool?.type !== 'function' || name === undefined) continue;
    const description = asString(tool.description) ?? '';
    result.push({ name, description, parameters: tool.parameters, ...(namespace !== undefined && { namespace }) });
  }
  return result;
}

function readToolChoice(choice: unknown): SimulatedToolChoice {
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'required' };
  const record = asRecord(choice);
  const name = asString(record?.name);
  if (record?.type === 'function' && name !== undefined) return { type: 'tool', name };
  return { type: 'auto' };
}
