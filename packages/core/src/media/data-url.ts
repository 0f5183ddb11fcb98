const DATA_URL = /^data:([^;,]+)(?:;[^;,]*)*;base64,(.*)$/s;

/** Splits a base64 `data:` URL into its media type and payload; `undefined` for anything else. */
export function parseDataURL(url: string): { mediaType: string; data: string } | undefined {
  const match = DATA_URL.exec(url);
  if (!match) return undefined;
  return { mediaType: match[1]!.toLowerCase(), data: match[2]! };
}

/** Builds a base64 `data:` URL. */
export function formatDataURL(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}
