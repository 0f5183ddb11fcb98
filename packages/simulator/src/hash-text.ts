/**
 * 32-bit FNV-1a over the UTF-16 code units of `text`, optionally continuing from `seed`.
 * The simulator's answers are a pure function of this hash, so equal prompts give equal answers.
 */
export function hashText(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
