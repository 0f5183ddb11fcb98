import { countPromptCharacters, createPromptBlockList, type PromptBlockList } from './prompt-blocks';
import { readOpenAIPromptCache } from './read-openai-prompt-cache';
import { asNumber, asRecord, asString, readTextContent } from './read-text-content';
import type { SimulatedRequest, SimulatedTool, SimulatedToolChoice } from './simulated-request';
import { simulatorError, type SimulatorError } from './simulator-error';

type ConversationSummary = { lastUserText: string; trailingToolResults: string[]; toolResultsSinceUserText: number };

/** `POST /v1/chat/completions` body → SimulatedRequest. Refuses only a missing `model` or `messages`. */
export function readChatRequest(body: Record<string, unknown>): SimulatedRequest | SimulatorError {
  const model = asString(body.model);
  if (model === undefined || model === '') {
    return simulatorError(400, 'you must provide a model parameter', { param: 'model', code: 'missing_required_parameter' });
  }
  if (!Array.isArray(body.messages)) {
    return simulatorError(400, "Missing required parameter: 'messages'.", { param: 'messages', code: 'missing_required_parameter' });
  }
  const prompt = createPromptBlockList();
  prompt.addTools(body.tools);
  const conversation = summarizeMessages(prompt, body.messages);
  return {
    model,
    stream: body.stream === true,
    lastUserText: conversation.lastUserText,
    inputCharacters: countPromptCharacters(prompt.blocks),
    promptBlocks: prompt.blocks,
    ...readOpenAIPromptCache(body),
    maxOutputTokens: asNumber(body.max_completion_tokens) ?? asNumber(body.max_tokens),
    stopSequences: readStop(body.stop),
    tools: readTools(body.tools),
    toolChoice: readToolChoice(body.tool_choice),
    parallelToolCalls: body.parallel_tool_calls !== false,
    trailingToolResults: conversation.trailingToolResults,
    toolResultsSinceUserText: conversation.toolResultsSinceUserText,
    reasoning: false,
    includeEncryptedReasoning: false,
    includeStreamUsage: asRecord(body.stream_options)?.include_usage === true,
    body,
  };
}

function summarizeMessages(prompt: PromptBlockList, messages: readonly unknown[]): ConversationSummary {
  const summary: ConversationSummary = { lastUserText: '', trailingToolResults: [], toolResultsSinceUserText: 0 };
  for (const entry of messages) {
    const message = asRecord(entry);
    if (message === undefined) continue;
    const text = readTextContent(message.content);
    prompt.add(String(message.role), `${text}${toolCallArguments(message.tool_calls)}`);
    if (message.role === 'tool') {
      summary.trailingToolResults.push(text);
      summary.toolResultsSinceUserText += 1;
      continue;
    }
    summary.trailingToolResults = [];
    if (message.role === 'user' && text !== '') {
      summary.lastUserText = text;
      summary.toolResultsSinceUserText = 0;
    }
  }
  return summary;
}

function toolCallArguments(toolCalls: unknown): string {
  if (!Array.isArray(toolCalls)) return '';
  let text = '';
  for (const call of toolCalls) text += asString(asRecord(asRecord(call)?.function)?.arguments) ?? '';
  return text;
}

function readStop(stop: unknown): string[] {
  if (typeof stop === 'string') return [stop];
  return Array.isArray(stop) ? stop.filter((entry): entry is string => typeof entry === 'string') : [];
}

function readTools(tools: unknown): SimulatedTool[] {
  if (!Array.isArray(tools)) return [];
  const result: SimulatedTool[] = [];
  for (const entry of tools) {
    const tool = asRecord(entry);
    const definition = asRecord(tool?.function);
    const name = asString(definition?.name);
    if (tool?.type === 'function' && name !== undefined) result.push({ name, description: asString(definition?.description) ?? '', parameters: definition?.parameters });
  }
  return result;
}

function readToolChoice(choice: unknown): SimulatedToolChoice {
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'required' };
  const record = asRecord(choice);
  const name = asString(asRecord(record?.function)?.name);
  if (record?.type === 'function' && name !== undefined) return { type: 'tool', name };
  return { type: 'auto' };
}
