/** Headers as Node and undici hand them over: a name may repeat, so a value may be a list. */
export type HeaderMap = Record<string, string | string[] | undefined>;

/** The first value of a header (a repeated header's first occurrence); `undefined` when absent. */
export function headerValue(headers: HeaderMap, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The first of several headers that is present, in the order given. */
export function firstHeaderValue(headers: HeaderMap, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = headerValue(headers, name);
    if (value !== undefined) return value;
  }
  return undefined;
}
