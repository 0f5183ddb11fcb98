/** Jest's sequencer, starting the known-slow files first when it has no timing for them. */
declare class SlowTestsFirstSequencer {
  constructor(options: { contexts: unknown[]; globalConfig: unknown });
  sort(tests: SlowTestsFirstSequencer.SequencedTest[]): SlowTestsFirstSequencer.SequencedTest[];
}

declare namespace SlowTestsFirstSequencer {
  /** What the sequencer reads of a test file: its path, its project's settings, the files' sizes. */
  type SequencedTest = {
    path: string;
    duration?: number;
    context: { config: { rootDir: string; cache: boolean }; hasteFS: { getSize(path: string): number | null } };
  };
}

export = SlowTestsFirstSequencer;
