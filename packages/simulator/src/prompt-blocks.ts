import { readCacheControl } from './read-cache-control';
import { asRecord } from './read-text-content';
import type { PromptBlock } from './simulated-request';
import { isSimulatorError, simulatorError, type SimulatorError } from './simulator-error';

/** Messages allows this many `cache_control` breakpoints per request. */
const MAX_CACHE_BREAKPOINTS = 4;

/** A request's blocks being collected in cache order; the first invalid `cache_control` is kept as the request's error. */
export type PromptBlockList = {
  readonly blocks: PromptBlock[];
  /** Appends one block; `cacheControl` (Messages only) makes it a breakpoint. `location` names it in an error. */
  add(label: string, text: string, cacheControl?: unknown, location?: string): void;
  /** Each tool definition as one block without text: part of the cache key, no input tokens. */
  addTools(tools: unknown): void;
  /** Messages' top-level `cache_control` marks the last block; then more than four breakpoints is the API's 400. */
  finishMessages(topLevelCacheControl: unknown): SimulatorError | undefined;
};

/** An empty list. */
export function createPromptBlockList(): PromptBlockList {
  const blocks: PromptBlock[] = [];
  let error: SimulatorError | undefined;
  const add = (label: string, text: string, cacheControl?: unknown, location = label, definition?: Record<string, unknown>) => {
    const block: PromptBlock = definition === undefined ? { label, text } : { label, text, definition };
    const breakpoint = readCacheControl(cacheControl, location);
    if (isSimulatorError(breakpoint)) error ??= breakpoint;
    else if (breakpoint !== undefined) block.breakpoint = breakpoint;
    blocks.push(block);
  };
  return {
    blocks,
    add,
    addTools(tools) {
      if (!Array.isArray(tools)) return;
      tools.forEach((entry, index) => {
        const tool = asRecord(entry);
        if (tool !== undefined) add('tool', '', tool.cache_control, `tools.${index}`, tool);
      });
    },
    finishMessages(topLevelCacheControl) {
      const last = blocks.at(-1);
      const automatic = readCacheControl(topLevelCacheControl, 'body');
      if (isSimulatorError(automatic)) error ??= automatic;
      else if (automatic !== undefined && last !== undefined) last.breakpoint ??= automatic;
      if (error !== undefined) return error;
      const found = blocks.filter(block => block.breakpoint !== undefined).length;
      if (found <= MAX_CACHE_BREAKPOINTS) return undefined;
      return simulatorError(400, `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${found}.`);
    },
  };
}

/** Characters of all blocks: what input tokens are counted from. */
export function countPromptCharacters(blocks: readonly PromptBlock[]): number {
  let characters = 0;
  for (const block of blocks) characters += block.text.length;
  return characters;
}
