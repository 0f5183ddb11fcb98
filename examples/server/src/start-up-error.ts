/**
 * A start-up problem the person starting the server can fix (a bad setting, a missing file, a busy
 * port). Its message is one line that names the setting to change; it is printed without a stack.
 */
export class StartUpError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StartUpError';
  }
}

/** A config file that cannot be read, parsed or validated: `path` is the file, `detail` what is wrong in it. */
export class ConfigFileError extends StartUpError {
  constructor(
    readonly path: string,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${path}: ${detail}`, options);
    this.name = 'ConfigFileError';
  }
}
