/** A function tool the caller offered, reduced to what the simulator needs. */
export type SimulatedTool = {
  name: string;
  /** The tool's description ('' when none); the model matches prompts against its words. */
  description: string;
  parameters: unknown;
  /** Responses only: the `namespace` tool this function belongs to; its calls carry the namespace. */
  namespace?: string;
};

/** The caller's tool_choice, unified across the three protocols. */
export type SimulatedToolChoice =
  | { type: 'auto' }
  | { type: 'none' }
  | { type: 'required' }
  | { type: 'tool'; name: string };

/**
 * One block of the prompt in the order the provider builds its cache key (tools, then system or
 * instructions, then the turns). Its text is what the token count sees; a tool's `definition` is
 * part of the cache key but counts no tokens (the simulator's input count leaves tool definitions
 * out). `label` tells blocks of equal text apart (a user turn from a tool result). A Messages
 * `cache_control` makes it a breakpoint.
 */
export type PromptBlock = { label: string; text: string; definition?: Readonly<Record<string, unknown>>; breakpoint?: CacheBreakpoint };

/** A Messages `cache_control` breakpoint: the prefix up to and including its block may be cached this long. */
export type CacheBreakpoint = { ttlSeconds: number };

/**
 * One request in no protocol's shape: what each protocol reader extracts from its body so the
 * answer generator stays protocol-neutral.
 */
export type SimulatedRequest = {
  model: string;
  stream: boolean;
  /** Text of the last user turn that has text (directives still inside). */
  lastUserText: string;
  /** Characters of all input text (system, messages, tool calls and results); drives input tokens. */
  inputCharacters: number;
  /** The prompt as blocks in cache order; their text lengths add up to `inputCharacters`. */
  promptBlocks: readonly PromptBlock[];
  /** OpenAI `prompt_cache_key`: part of the automatic cache's key when given. */
  promptCacheKey: string | undefined;
  /** How long an automatic (OpenAI) cache entry lives unused: a day with `prompt_cache_retention: '24h'`, else 5 minutes. */
  promptCacheTtlSeconds: number;
  /** The protocol's output cap, when the caller set one. */
  maxOutputTokens: number | undefined;
  stopSequences: readonly string[];
  tools: readonly SimulatedTool[];
  toolChoice: SimulatedToolChoice;
  parallelToolCalls: boolean;
  /** Texts of the tool results that end the conversation; empty when it does not end with one. */
  trailingToolResults: readonly string[];
  /** Tool results sent since the last user text (every round of an agent's tool loop). */
  toolResultsSinceUserText: number;
  reasoning: boolean;
  includeEncryptedReasoning: boolean;
  /** Structured output (Gemini `responseMimeType: 'application/json'`): the JSON schema the answer's text follows. */
  responseSchema?: unknown;
  /** Chat only: `stream_options.include_usage`. */
  includeStreamUsage: boolean;
  /** The parsed body, for protocols that echo request fields (Responses). */
  body: Readonly<Record<string, unknown>>;
};
