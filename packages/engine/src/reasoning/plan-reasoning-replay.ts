import type {
  AssistantMessage,
  GenerationRequest,
  Message,
  ReasoningPart,
  Translated,
  TranslationWarning,
} from '@signalbox/core';
import type { ReasoningIssuers } from './create-reasoning-issuers';

/** What a request's replayed reasoning becomes for each upstream its attempts go to. */
export type ReasoningReplay = {
  /**
   * The request as it may go to `upstream`, or `undefined` when its history carries no reasoning
   * proof another upstream issued (it then goes as it is, or as the client sent it).
   */
  requestFor(upstream: string): Translated<GenerationRequest> | undefined;
};

/**
 * Plans the replay of a request's reasoning across its attempts. Reasoning whose proof another
 * upstream issued would be refused where it goes ("Invalid signature in thinking block"), so it
 * loses its proof: its text stays as prior assistant text, which every protocol takes, and a part
 * with no text (redacted thinking, bare encrypted reasoning) is dropped; both with a warning. A
 * proof the upstream issued itself, or one nobody here knows, is kept. The history is looked up once,
 * at the first attempt that may need it.
 */
export function planReasoningReplay(request: GenerationRequest, issuers: ReasoningIssuers): ReasoningReplay {
  let issued: Map<ReasoningPart, string> | undefined;
  return {
    requestFor(upstream) {
      if (issuers.onlyIssuer(upstream)) return undefined;
      issued ??= issuersOfHistory(request.messages, issuers);
      const foreign = new Set<ReasoningPart>();
      for (const [part, issuer] of issued) if (issuer !== upstream) foreign.add(part);
      return foreign.size === 0 ? undefined : withoutForeignProofs(request, foreign);
    },
  };
}

function issuersOfHistory(messages: readonly Message[], issuers: ReasoningIssuers): Map<ReasoningPart, string> {
  const issued = new Map<ReasoningPart, string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) {
      if (part.type !== 'reasoning') continue;
      const issuer = issuers.issuerOf(part);
      if (issuer !== undefined) issued.set(part, issuer);
    }
  }
  return issued;
}

function withoutForeignProofs(request: GenerationRequest, foreign: ReadonlySet<ReasoningPart>): Translated<GenerationRequest> {
  const counts = { asText: 0, dropped: 0 };
  const messages = request.messages.flatMap(message => {
    if (message.role !== 'assistant' || !message.content.some(part => part.type === 'reasoning' && foreign.has(part))) return [message];
    const content = message.content.flatMap((part): AssistantMessage['content'] => {
      if (part.type !== 'reasoning' || !foreign.has(part)) return [part];
      if (part.text === '') {
        counts.dropped++;
        return [];
      }
      counts.asText++;
      return [{ type: 'text', text: part.text }];
    });
    return content.length === 0 ? [] : [{ ...message, content }];
  });
  return { value: { ...request, messages }, warnings: [replayWarning(counts)] };
}

function replayWarning({ asText, dropped }: { asText: number; dropped: number }): TranslationWarning {
  return {
    type: 'lossy-conversion',
    field: 'messages.reasoning',
    details:
      `${asText} reasoning part(s) signed by another upstream went as assistant text and ${dropped} without text were dropped: ` +
      'a reasoning signature verifies only at the upstream that made it.',
  };
}
