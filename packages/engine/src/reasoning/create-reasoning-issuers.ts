import { hash } from 'node:crypto';
import type { OutputPart, ReasoningPart } from '@signalbox/core';

/** How many proofs an engine remembers; past it, the oldest are forgotten first (about 100 bytes each). */
export const MAX_REMEMBERED_PROOFS = 50_000;

/**
 * Which upstream issued each reasoning proof the gateway passed to a client: an Anthropic thinking
 * signature or redacted thinking, an OpenAI encrypted reasoning item. A proof verifies only at the
 * upstream that issued it, so a history replayed to another one must not carry it. Kept in this
 * instance's memory (a digest per proof, bounded): a proof another instance passed on, or one from
 * before a restart, is unknown and replayed as sent.
 */
export type ReasoningIssuers = {
  /** Remembers `upstream` as the issuer of every proof among an answer's parts. */
  recordParts(parts: readonly OutputPart[], upstream: string): void;
  /** Remembers `upstream` as the issuer of one proof (a stream's reasoning event). */
  recordProof(proof: string, upstream: string): void;
  /** The upstream that issued the part's proof, when this instance passed it on. */
  issuerOf(part: ReasoningPart): string | undefined;
  /** True when every proof remembered was issued by `upstream` (or none is): nothing is foreign to it. */
  onlyIssuer(upstream: string): boolean;
};

export function createReasoningIssuers(maxProofs = MAX_REMEMBERED_PROOFS): ReasoningIssuers {
  const issuers = new Map<string, string>();
  const upstreams = new Set<string>();
  const recordProof = (proof: string, upstream: string) => {
    const digest = digestOf(proof);
    if (issuers.size >= maxProofs && !issuers.has(digest)) issuers.delete(issuers.keys().next().value!);
    issuers.set(digest, upstream);
    upstreams.add(upstream);
  };
  return {
    recordParts(parts, upstream) {
      for (const part of parts) if (part.type === 'reasoning') for (const proof of proofsOf(part)) recordProof(proof, upstream);
    },
    recordProof,
    issuerOf(part) {
      for (const proof of proofsOf(part)) {
        const issuer = issuers.get(digestOf(proof));
        if (issuer !== undefined) return issuer;
      }
      return undefined;
    },
    onlyIssuer: upstream => upstreams.size === 0 || (upstreams.size === 1 && upstreams.has(upstream)),
  };
}

/** The opaque values of a reasoning part that only its issuer can verify. */
export function proofsOf(part: ReasoningPart): string[] {
  const proofs: string[] = [];
  if (part.signature) proofs.push(part.signature);
  if (part.redactedData) proofs.push(part.redactedData);
  if (part.encryptedContent) proofs.push(part.encryptedContent);
  return proofs;
}

// A fixed-size digest, so that memory does not grow with the size of the proofs.
function digestOf(proof: string): string {
  return hash('sha256', proof, 'base64url');
}
