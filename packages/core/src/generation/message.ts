import type {
  FilePart,
  ImagePart,
  ReasoningPart,
  RefusalPart,
  TextPart,
  ToolCallPart,
  ToolResultPart,
} from './content-part';

export type SystemMessage = { role: 'system'; content: TextPart[] };
export type UserMessage = { role: 'user'; content: Array<TextPart | ImagePart | FilePart> };
export type AssistantMessage = {
  role: 'assistant';
  content: Array<TextPart | RefusalPart | ReasoningPart | ToolCallPart>;
};
/** Results of earlier tool calls, in call order (Anthropic puts these in a user turn). */
export type ToolMessage = { role: 'tool'; content: ToolResultPart[] };

/** One turn of the conversation; its role decides which parts it may hold. */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;
