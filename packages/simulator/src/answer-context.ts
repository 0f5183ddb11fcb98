import type { AnswerPlan } from './answer-plan';
import type { PromptCacheUsage } from './prompt-cache-usage';
import type { SimulatedRequest } from './simulated-request';

/** What a protocol encoder gets for one answer: the request, the plan and the per-response facts. */
export type AnswerContext = {
  request: SimulatedRequest;
  plan: AnswerPlan;
  /** Unix seconds. */
  createdAt: number;
  requestId: string;
  /** What the prompt read from and wrote to the credential's prompt cache; usage reports it in the protocol's terms. */
  cache: PromptCacheUsage;
  /** The `finishReason` a `[[sim:finish=…]]` marker asks for: Gemini withholds the answer and ends with it. */
  directedFinish?: string;
};
