import { asNumber, asRecord, asString, readTextContent } from './read-text-content';
import type { SimulatedRequest, SimulatedTool, SimulatedToolChoice } from './simulated-request';
import { simulatorError, type SimulatorError } from './simulator-error';

type TurnSummary = { characters: number; text: string; toolResults: string[] };

/**
 * `POST /v1/messages` body → SimulatedRequest. Refuses what the real API always refuses and a
 * codec must get right: no `model`, no `max_tokens`, no `messages` array.
 */
export function readMessagesRequest(body: Record<string, unknown>): SimulatedRequest | SimulatorError {
  const missing = missingField(body);
  if (missing !== undefined) return simulatorError(400, `${missing}: Field required`);
  const maxTokens = asNumber(body.max_tokens) as number;
  let characters = readTextContent(body.system).length;
  let lastUserText = '';
  let trailingToolResults: string[] = [];
  for (const entry of body.messages as unknown[]) {
    const message = asRecord(entry);
    if (message === undefined) continue;
    const turn = summarizeTurn(message.content);
    characters += turn.characters;
    trailingToolResults = message.role === 'user' ? turn.toolResults : [];
    if (message.role === 'user' && turn.text !== '') lastUserText = turn.text;
  }
  const thinkingType = asRecord(body.thinking)?.type;
  const toolChoice = asRecord(body.tool_choice);
  return {
    model: body.model as string,
    stream: body.stream === true,
    lastUserText,
    inputCharacters: characters,
    maxOutputTokens: maxTokens,
    stopSequences: Array.isArray(body.stop_sequences)
      ? body.stop_sequences.filter((entry): entry is string => typeof entry === 'string')
      : [],
    tools: readTools(body.tools),
    toolChoice: readToolChoice(toolChoice),
    parallelToolCalls: toolChoice?.disable_parallel_tool_use !== true,
    trailingToolResults,
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

function summarizeTurn(content: unknown): TurnSummary {
  if (typeof content === 'string') return { characters: content.length, text: content, toolResults: [] };
  const turn: TurnSummary = { characters: 0, text: '', toolResults: [] };
  if (!Array.isArray(content)) return turn;
  for (const entry of content) {
    const block = asRecord(entry);
    if (block === undefined) continue;
    const text = blockText(block);
    turn.characters += text.length;
    if (block.type === 'tool_result') turn.toolResults.push(text);
    if (block.type === 'text') turn.text = turn.text === '' ? text : `${turn.text}\n${text}`;
  }
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
