/** One tool call the simulated model decided to make; ids are assigned by each protocol's encoder. */
export type PlannedToolCall = {
  name: string;
  /** The Responses `namespace` of the called function, when it was declared inside one. */
  namespace?: string;
  /**
   * The opaque part of the call's id (each protocol adds its prefix: `toolu_`, `call_`): a hash of
   * the conversation, the tool and the call's position, so the same request gets the same call ids
   * and a later turn of the same conversation gets new ones.
   */
  idSuffix: string;
  /** The arguments as a JSON object text. */
  arguments: string;
  /** `arguments` cut into ≥ 2 pieces whose concatenation is `arguments`, for streaming. */
  argumentFragments: readonly string[];
  /** `arguments` parsed, for protocols that carry an object (Messages `tool_use.input`). */
  input: Readonly<Record<string, unknown>>;
};

/** The reasoning/thinking text, when the request asked for it. */
export type PlannedReasoning = {
  tokens: readonly string[];
  text: string;
  /** False when the output limit cut the reasoning short. */
  complete: boolean;
  /** Messages `signature_delta`: deterministic, opaque, base64-looking. */
  signature: string;
  /** Responses `encrypted_content`: deterministic, opaque, base64-looking. */
  encryptedContent: string;
};

/** Why the simulated generation ended, before each protocol names it. */
export type AnswerFinish = 'stop' | 'length' | 'tool-calls' | 'stop-sequence';

/** Token counts of one answer; one token is one word (tool arguments: four characters). */
export type AnswerUsage = { inputTokens: number; outputTokens: number; reasoningTokens: number };

/** Everything a protocol encoder needs to write one answer, in JSON or as a stream. */
export type AnswerPlan = {
  reasoning: PlannedReasoning | undefined;
  /** Text tokens in order: the first without, the others with a leading space. */
  textTokens: readonly string[];
  text: string;
  toolCalls: readonly PlannedToolCall[];
  finish: AnswerFinish;
  /** The stop sequence as the caller sent it, when `finish` is `stop-sequence`. */
  stopSequence: string | undefined;
  usage: AnswerUsage;
};
