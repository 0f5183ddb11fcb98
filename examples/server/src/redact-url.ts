/**
 * Driver errors (pg, ioredis) made safe for start-up messages and logs: a connection URL may hold a
 * password, so neither the URL nor its password is ever repeated.
 */

/** A driver failure in one line: the cause's message (or code) when the error wraps one. */
export function describeDriverError(error: unknown): string {
  // Duck-typed: socket errors come from Node's internals, another realm inside a test runner's sandbox.
  const wrapped = (error as { cause?: unknown } | undefined)?.cause;
  const cause = typeof wrapped === 'object' && wrapped !== null ? wrapped : error;
  const { message, code } = (typeof cause === 'object' && cause !== null ? cause : {}) as { message?: unknown; code?: unknown };
  const text = typeof message === 'string' && message !== '' ? message : typeof code === 'string' ? code : String(cause);
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** The text without the URL or its password, in case a driver quoted either. */
export function redactURL(text: string, url: string): string {
  let result = text.split(url).join('<the URL>');
  try {
    const password = decodeURIComponent(new URL(url).password);
    if (password) result = result.split(password).join('<password>');
  } catch {
    // Not a URL the WHATWG parser reads: nothing more to take out.
  }
  return result;
}

/** What a log line may hold of a driver error: its message without the URL, and its code. */
export function redactError(error: unknown, url: string): { message: string; code?: string } {
  const code = (error as { code?: unknown })?.code;
  return { message: redactURL(describeDriverError(error), url), ...(typeof code === 'string' && { code }) };
}
