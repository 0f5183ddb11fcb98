import type { OutputPart, ReasoningPart } from '@signalbox/core';
import { createReasoningIssuers } from './create-reasoning-issuers';

const signed = (signature: string): ReasoningPart => ({ type: 'reasoning', text: 'Plan.', signature });

describe('createReasoningIssuers', () => {
  it('knows which upstream issued each proof of an answer, and nothing it never saw', () => {
    const issuers = createReasoningIssuers();
    const answer: OutputPart[] = [
      signed('sig-a'),
      { type: 'reasoning', text: '', redactedData: 'redacted-a' },
      { type: 'text', text: 'Done.' },
    ];
    issuers.recordParts(answer, 'anthropic-a');
    issuers.recordProof('gAAAA-openai', 'openai-b');
    expect(issuers.issuerOf(signed('sig-a'))).toBe('anthropic-a');
    expect(issuers.issuerOf({ type: 'reasoning', text: '', redactedData: 'redacted-a' })).toBe('anthropic-a');
    expect(issuers.issuerOf({ type: 'reasoning', text: 'summary', encryptedContent: 'gAAAA-openai' })).toBe('openai-b');
    expect(issuers.issuerOf(signed('sig-from-elsewhere'))).toBeUndefined();
    expect(issuers.issuerOf({ type: 'reasoning', text: 'unsigned' })).toBeUndefined();
  });

  it('says when nothing can be foreign to an upstream, so a request needs no look-up', () => {
    const issuers = createReasoningIssuers();
    expect(issuers.onlyIssuer('a')).toBe(true);
    issuers.recordProof('sig-1', 'a');
    expect(issuers.onlyIssuer('a')).toBe(true);
    expect(issuers.onlyIssuer('b')).toBe(false);
    issuers.recordProof('sig-2', 'b');
    expect(issuers.onlyIssuer('a')).toBe(false);
  });

  it('forgets the oldest proofs past its bound', () => {
    const issuers = createReasoningIssuers(2);
    issuers.recordProof('sig-1', 'a');
    issuers.recordProof('sig-2', 'a');
    issuers.recordProof('sig-2', 'a');
    issuers.recordProof('sig-3', 'b');
    expect([signed('sig-1'), signed('sig-2'), signed('sig-3')].map(part => issuers.issuerOf(part))).toEqual([undefined, 'a', 'b']);
  });
});
