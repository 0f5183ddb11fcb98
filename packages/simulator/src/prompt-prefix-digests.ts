import { createHash, type Hash } from 'node:crypto';
import type { PromptBlock } from './simulated-request';

/**
 * A prefix of the prompt: how many characters it holds (what its tokens are counted from) and a
 * digest of its text, tool definitions, block labels and the cache scope.
 */
export type PrefixDigest = { characters: number; digest: string };

/**
 * The digest after each block, from the first through `lastBlock`: where Messages may cache (a
 * breakpoint) or find a cached prefix (the blocks before one).
 */
export function digestBlockEnds(blocks: readonly PromptBlock[], scope: string, lastBlock: number): PrefixDigest[] {
  const hash = startHash(scope);
  const prefixes: PrefixDigest[] = [];
  let characters = 0;
  for (let index = 0; index <= lastBlock && index < blocks.length; index += 1) {
    const block = blocks[index] as PromptBlock;
    hash.update(blockHeader(block));
    hash.update(block.text);
    characters += block.text.length;
    prefixes.push({ characters, digest: hash.copy().digest('base64') });
  }
  return prefixes;
}

/**
 * The digest at each of `positions` (character counts, ascending, none past the prompt's end),
 * wherever they fall inside blocks: where OpenAI's automatic cache keeps a prefix.
 */
export function digestAtCharacters(blocks: readonly PromptBlock[], scope: string, positions: readonly number[]): PrefixDigest[] {
  const hash = startHash(scope);
  const prefixes: PrefixDigest[] = [];
  let offset = 0;
  for (const block of blocks) {
    if (prefixes.length === positions.length) break;
    hash.update(blockHeader(block));
    let consumed = 0;
    let next = positions[prefixes.length];
    while (next !== undefined && next <= offset + block.text.length) {
      hash.update(block.text.slice(consumed, next - offset));
      consumed = next - offset;
      prefixes.push({ characters: next, digest: hash.copy().digest('base64') });
      next = positions[prefixes.length];
    }
    hash.update(block.text.slice(consumed));
    offset += block.text.length;
  }
  return prefixes;
}

function startHash(scope: string): Hash {
  return createHash('sha1').update(scope);
}

/**
 * Separates blocks, so equal text in a different structure (a user turn, a tool result) is another
 * prefix; a tool's definition goes in here, without the `cache_control` that marks it.
 */
function blockHeader(block: PromptBlock): string {
  const { definition } = block;
  if (definition === undefined) return `\u0000${block.label}\u0000`;
  const json = JSON.stringify(definition, function omitCacheControl(this: unknown, key, value: unknown) {
    return this === definition && key === 'cache_control' ? undefined : value;
  });
  return `\u0000${block.label}\u0000${json}\u0000`;
}
