/** Test helper: what a client got from a body before it ended or failed, and how it ended. */
export type BodyOutcome = { text: string; failed: boolean; chunkTimes: number[] };

/**
 * Test helper: reads a fetch body to its end, keeping what arrived even when the connection is cut
 * (plain `response.text()` would throw the partial text away).
 */
export async function readBodyUntilEnd(response: Response): Promise<BodyOutcome> {
  const decoder = new TextDecoder();
  const outcome: BodyOutcome = { text: '', failed: false, chunkTimes: [] };
  if (response.body === null) return outcome;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      outcome.chunkTimes.push(Date.now());
      outcome.text += decoder.decode(value, { stream: true });
    }
  } catch {
    outcome.failed = true;
  }
  return outcome;
}
