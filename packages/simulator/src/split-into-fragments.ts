/**
 * Cuts `text` into pieces of at most `size` characters, and always into at least two pieces when
 * it has two characters or more, so streamed tool arguments really arrive in fragments.
 */
export function splitIntoFragments(text: string, size = 12): string[] {
  if (text.length < 2) return [text];
  if (text.length <= size) {
    const middle = Math.ceil(text.length / 2);
    return [text.slice(0, middle), text.slice(middle)];
  }
  const fragments: string[] = [];
  for (let start = 0; start < text.length; start += size) fragments.push(text.slice(start, start + size));
  return fragments;
}
