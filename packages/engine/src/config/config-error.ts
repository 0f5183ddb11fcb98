/** Thrown at start for a config that does not validate; the message lists every bad path. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid gateway config:\n${problems.map(problem => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}
