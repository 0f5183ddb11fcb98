/** The fixed vocabulary of simulated answers. Changing it changes every answer, so tests pin it. */
export const WORD_LIST: readonly string[] = [
  'the', 'river', 'signal', 'quiet', 'model', 'answer', 'bright', 'stone', 'window', 'gateway',
  'token', 'stream', 'harbor', 'lantern', 'orbit', 'meadow', 'copper', 'echo', 'pattern', 'thread',
  'simple', 'careful', 'north', 'garden', 'circuit', 'paper', 'silver', 'bridge', 'forest', 'engine',
  'morning', 'cloud', 'number', 'letter', 'market', 'island', 'winter', 'summer', 'valley', 'candle',
  'mirror', 'compass', 'ladder', 'rocket', 'pillow', 'canvas', 'puzzle', 'anchor', 'beacon', 'crystal',
  'feather', 'glacier', 'horizon', 'journey', 'kernel', 'ledger', 'marble', 'nectar', 'oasis', 'pebble',
  'quartz', 'ribbon', 'saddle', 'timber',
];

/** Words of the thinking/reasoning summary, kept apart so reasoning never reads like the answer. */
export const REASONING_WORD_LIST: readonly string[] = [
  'consider', 'first', 'then', 'check', 'assume', 'compare', 'therefore', 'likely', 'because', 'step',
  'outline', 'verify', 'plan', 'note', 'recall', 'weigh',
];
