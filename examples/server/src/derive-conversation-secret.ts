import { hkdfSync } from 'node:crypto';

/**
 * The secret compaction items are sealed under, derived from the server secret (HKDF-SHA256): it
 * survives restarts, is the same on every instance given the same server secret, and never shares a
 * key with the API key digests.
 */
export function deriveConversationSecret(serverSecret: string): string {
  return Buffer.from(hkdfSync('sha256', serverSecret, '', 'signalbox conversation state', 32)).toString('hex');
}
