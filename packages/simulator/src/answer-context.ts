import type { AnswerPlan } from './answer-plan';
import type { SimulatedRequest } from './simulated-request';

/** What a protocol encoder gets for one answer: the request, the plan and the per-response facts. */
export type AnswerContext = {
  request: SimulatedRequest;
  plan: AnswerPlan;
  /** Unix seconds. */
  createdAt: number;
  requestId: string;
};
