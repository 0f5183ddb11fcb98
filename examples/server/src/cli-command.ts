import type { AdminService } from '@signalbox/accounts';

/** How the README and every usage text spell the command line. */
export const PROGRAM = './scripts/start.sh';

/** How the usage texts describe an `--account ID` and a `--group g`. */
export const ACCOUNT_ID = "the account id from 'accounts list'";
export const GROUP = 'a group name; routes with `groups` admit only keys or accounts of those groups';

/** A `--flag VALUE` of a command. */
export type CliOption = {
  /** What the usage line shows as the value: `ID`, `2027-01-01`, `a,b`. */
  placeholder: string;
  /** What the value is and where to find one; also the hint when a required flag is missing. */
  description: string;
  required?: boolean;
};

/** A positional argument of a command (`keys disable ID`). */
export type CliArgument = { name: string; description: string };

export type CliInput = {
  arguments: Record<string, string>;
  options: Record<string, string | undefined>;
};

/** What a command may use: the admin service on the data folder (opened on first use) and the folder itself. */
export type CliContext = {
  admin(): Promise<AdminService>;
  /** The data folder's absolute path; a `CliError` if it does not exist. */
  dataDirectory(): string;
  environment: NodeJS.ProcessEnv;
  /**
   * Prints a secret the one time it exists in the clear, on stderr and always in the same shape:
   * what a command prints on stdout (a pipe, a log, a script's capture) never holds one.
   */
  revealSecret(heading: string, secret: string): void;
  /**
   * The model IDs the server on this environment routes, read on first use: the config version in
   * force in the store, else (none yet, or `config.source: "file"`) the config file's (`readRouteModels`).
   */
  routeModels(): Promise<readonly string[]>;
};

export type CliCommand = {
  /** `keys create`. */
  name: string;
  summary: string;
  arguments?: readonly CliArgument[];
  options?: Readonly<Record<string, CliOption>>;
  /** The admin service's field names as the user types them (`accountId` → `--account`), for its validation errors. */
  fields?: Readonly<Record<string, string>>;
  /** What to say when the admin service finds no record with the id given. */
  notFound?: string;
  /** Returns the text to print. */
  run(input: CliInput, context: CliContext): Promise<string>;
};

/**
 * A mistake on the command line or in a value, said in one line that names the flag or argument
 * to fix. `usage` errors (unknown commands or flags, missing values) exit with 2, others with 1.
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly kind: 'usage' | 'failure' = 'usage',
  ) {
    super(message);
    this.name = 'CliError';
  }
}
