import { DEFAULT_CACHE_TTL_SECONDS } from './prompt-cache-usage';
import { countPromptCharacters, createPromptBlockList, type PromptBlockList } from './prompt-blocks';
import { asNumber, asRecord, asString, readTextContent } from './read-text-content';
import type { SimulatedRequest, SimulatedTool, SimulatedToolChoice } from './simulated-request';
import { simulatorError, type SimulatorError } from './simulator-error';

type TurnSummary = { text: string; toolResults: string[] };

/**
 * `POST /v1/messages` body → SimulatedRequest. Refuses what the real API always refuses and a
 * codec must get right: no `model`, no `max_tokens`, no `messages` array.
 */
export function readMessagesRequest(body: Record<string, unknown>): SimulatedRequest | SimulatorError {
  const missing = missingField(body);
  if (missing !== undefined) return simulatorError(400, `${missing}: Field required`);
  const maxTokens = asNumber(body.max_tokens) as number;
  const prompt = createPromptBlockList();
  prompt.addTools(body.tools);
  addSystemBlocks(prompt, body.system);
  let lastUserText = '';
  let trailingToolResults: string[] = [];
  let toolResultsSinceUserText = 0;
  (body.messages as unknown[]).forEach((entry, index) => {
    const message = asRecord(entry);
    if (message === undefined) return;
    const turn = summarizeTurn(prompt, message, `messages.${index}`);
    trailingToolResults = message.role === 'user' ? turn.toolResults : [];
    toolResultsSinceUserText += trailingToolResults.length;
    if (message.role === 'user' && turn.text !== '') {
      lastUserText = turn.text;
      toolResultsSinceUserText = 0;
    }
  });
  const cacheError = prompt.finishMessages(body.cache_control);
  if (cacheError !== undefined) return cacheError;
  const thinkingType = asRecord(body.thinking)?.type;
  const toolChoice = asRecord(body.tool_choice);
  return {
    model: body.model as string,
    stream: body.stream === true,
    lastUserText,
    inputCharacters: countPromptCharacters(prompt.blocks),
    promptBlocks: prompt.blocks,
    promptCacheKey: undefined,
    promptCacheTtlSeconds: DEFAULT_CACHE_TTL_SECONDS,
    maxOutputTokens: maxTokens,
    stopSequences: Array.isArray(body.stop_sequences)
      ? body.stop_sequences.filter((entry): entry is string => typeof entry === 'string')
      : [],
    tools: readTools(body.tools),
    toolChoice: readToolChoice(toolChoice),
    parallelToolCalls: toolChoice?.disable_parallel_tool_use !== true,
    trailingToolResults,
    toolResultsSinceUserText,
    reasoning: thinkingType === 'enabled' || thinkingType === 'adaptive',
    includeEncryptedReasoning: false,
    includeStreamUsage: false,
    body,
  };
}

function missingField(body: Record<string, unknown>): string | undefined {
  if (typeof body.model !== 'string' || body.model === '') return 'model';
  if (asNumber(body.max_tokens) === undefined) return 'max_tokens';
  if (!Array.isArray(body.messages)) return 'messages';
  return undefined;
}

/** System text: a string, or text blocks that may each carry `cache_control`. */
function addSystemBlocks(prompt: PromptBlockList, system: unknown): void {
  if (typeof system === 'string') return prompt.add('system', system);
  if (!Array.isArray(system)) return;
  system.forEach((entry, index) => {
    const block = asRecord(entry);
    if (block !== undefined) prompt.add('system', asString(block.text) ?? '', block.cache_control, `system.${index}`);
  });
}

/** Adds one message's blocks to the prompt and returns its text and tool results. */
function summarizeTurn(prompt: PromptBlockList, message: Record<string, unknown>, location: string): TurnSummary {
  const role = String(message.role);
  const content = message.content;
  if (typeof content === 'string') {
    prompt.add(`${role}:text`, content);
    return { text: content, toolResults: [] };
  }
  const turn: TurnSummary = { text: '', toolResults: [] };
  if (!Array.isArray(content)) return turn;
  content.forEach((entry, index) => {
    const block = asRecord(entry);
    if (block === undefined) return;
    const text = blockText(block);
    prompt.add(`${role}:${String(block.type)}`, text, block.cache_control, `${location}.content.${index}`);
    if (block.type === 'tool_result') turn.toolResults.push(text);
    if (block.type === 'text') turn.text = turn.text === '' ? text : `${turn.text}\n${text}`;
  });
  return turn;
}

function blockText(block: Record<string, unknown>): string {
  switch (block.type) {
    case 'text':
      return asString(block.text) ?? '';
    case 'tool_result':
      return readTextContent(block.content);
    case 'tool_use':
      return JSON.stringify(block.input ?? {});
    case 'thinking':
      return asString(block.thinking) ?? '';
    default:
      return '';
  }
}

function readTools(tools: unknown): SimulatedTool[] {
  if (!Array.isArray(tools)) return [];
  const result: SimulatedTool[] = [];
  for (const entry of tools) {
    const tool = asRecord(entry);
    const name = asString(tool?.name);
    const isClientTool = tool?.type === undefined || tool.type === 'custom';
    if (isClientTool && name !== undefined && tool?.input_schema !== undefined) {
      result.push({ name, description: asString(tool.description) ?? '', parameters: tool.input_schema });
    }
  }
  return result;
}

function readToolChoice(choice: Record<string, unknown> | undefined): SimulatedToolChoice {
  const name = asString(choice?.name);
  switch (choice?.type) {
    case 'none':
      return { type: 'none' };
    case 'any':
      return { type: 'required' };
    case 'tool':
      return name === undefined ? { type: 'required' } : { type: 'tool', name };
    default:
      return { type: 'auto' };
  }
}
