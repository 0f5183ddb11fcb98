/** Test helper: polls `condition` every 5 ms until it holds, or fails after `timeoutMs`. */
export async function waitUntil(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('waitUntil: condition not met in time');
    await new Promise(resolve => setTimeout(resolve, 5));
  }
}
