import { ADMIN_IDENTITY } from '@signalbox/accounts';
import { rotateAdminToken } from './admin-token-file';
import { CliError, PROGRAM, type CliCommand } from './cli-command';
import { loadPriceCatalogFiles } from './load-on-demand';
import { adminTokenFileIn } from './open-data-directory';

const ACCOUNT_ID = "the account id from 'accounts list'";
const KEY_ID = "the key id from 'keys list'";
const CONSOLE_TOKEN_ID = "the console token id from 'console-token list'";
const DAY_MS = 24 * 60 * 60 * 1000;
const GROUP = 'a group name; routes with `groups` admit only keys or accounts of those groups';

/** Every management command, in the order `--help` lists them. */
export const CLI_COMMANDS: readonly CliCommand[] = [
  {
    name: 'accounts list',
    summary: 'Lists the accounts: ids, names, balances, groups.',
    run: async (_input, context) => json(await (await context.admin()).listAccounts(ADMIN_IDENTITY)),
  },
  {
    name: 'accounts create',
    summary: 'Creates an account (keys belong to accounts).',
    options: {
      name: { placeholder: 'N', description: "the account's name, such as team-a", required: true },
      balance: { placeholder: '10', description: 'the opening balance in currency units (default 0)' },
      group: { placeholder: 'g', description: GROUP },
    },
    fields: { name: '--name', balance: '--balance', group: '--group' },
    run: async ({ options }, context) =>
      json(
        await (await context.admin()).createAccount(ADMIN_IDENTITY, {
          name: options.name,
          ...(options.balance !== undefined && { balance: parseUnits(options.balance, '--balance') }),
          ...(options.group !== undefined && { group: options.group }),
        }),
      ),
  },
  {
    name: 'accounts top-up',
    summary: "Adds to an account's balance (a negative amount takes away).",
    arguments: [
      { name: 'ID', description: ACCOUNT_ID },
      { name: 'UNITS', description: 'the amount in currency units, such as 5 or -2.5' },
    ],
    fields: { delta: 'UNITS' },
    notFound: `no account has that ID (see '${PROGRAM} accounts list')`,
    run: async ({ arguments: values }, context) =>
      json(await (await context.admin()).adjustBalance(ADMIN_IDENTITY, values.ID!, { delta: parseUnits(values.UNITS!, 'UNITS') })),
  },
  {
    name: 'keys list',
    summary: 'Lists API keys (prefixes only; a secret is shown once, when created).',
    options: { account: { placeholder: 'ID', description: `only this account's keys: ${ACCOUNT_ID}` } },
    run: async ({ options }, context) => json(await (await context.admin()).listKeys(ADMIN_IDENTITY, options.account)),
  },
  {
    name: 'keys create',
    summary: 'Creates an API key and prints its secret, once.',
    options: {
      account: { placeholder: 'ID', description: ACCOUNT_ID, required: true },
      name: { placeholder: 'N', description: 'a label for the key, such as laptop', required: true },
      expires: { placeholder: '2027-01-01', description: 'when the key stops working: a date, or an ISO 8601 time with its offset' },
      models: { placeholder: 'a,b', description: 'the only model IDs the key may use, comma-separated (default: every model)' },
      group: { placeholder: 'g', description: GROUP },
    },
    fields: { accountId: '--account', name: '--name', expiresAt: '--expires', allowedModels: '--models', group: '--group' },
    notFound: `no account has that --account id (see '${PROGRAM} accounts list')`,
    run: async ({ options }, context) =>
      json(
        await (await context.admin()).createKey(ADMIN_IDENTITY, {
          accountId: options.account,
          name: options.name,
          ...(options.expires !== undefined && { expiresAt: parseDate(options.expires, '--expires') }),
          ...(options.models !== undefined && { allowedModels: parseList(options.models, '--models') }),
          ...(options.group !== undefined && { group: options.group }),
        }),
      ),
  },
  {
    name: 'keys disable',
    summary: 'Disables a key: requests with it get 401 from then on.',
    arguments: [{ name: 'ID', description: KEY_ID }],
    notFound: `no key has that ID (see '${PROGRAM} keys list')`,
    run: async ({ arguments: values }, context) => json(await (await context.admin()).updateKey(ADMIN_IDENTITY, values.ID!, { status: 'disabled' })),
  },
  {
    name: 'keys enable',
    summary: 'Enables a disabled key again.',
    arguments: [{ name: 'ID', description: KEY_ID }],
    notFound: `no key has that ID (see '${PROGRAM} keys list')`,
    run: async ({ arguments: values }, context) => json(await (await context.admin()).updateKey(ADMIN_IDENTITY, values.ID!, { status: 'active' })),
  },
  {
    name: 'console-token create',
    summary: "Creates a console token for one account and prints it, once: a login to the admin API and the panel that sees only that account's keys, usage and balance.",
    options: {
      account: { placeholder: 'ID', description: ACCOUNT_ID, required: true },
      name: { placeholder: 'N', description: 'a label for the token, such as alice', required: true },
      role: { placeholder: 'ROLE', description: 'owner (manages the account: keys, console tokens) or viewer (only reads it); default owner' },
      'expires-in-days': { placeholder: 'DAYS', description: 'days until the token stops working (default: never)' },
    },
    fields: { accountId: '--account', name: '--name', role: '--role', expiresAt: '--expires-in-days' },
    notFound: `no account has that --account id (see '${PROGRAM} accounts list')`,
    run: async ({ options }, context) => {
      const days = options['expires-in-days'];
      const { secret, token } = await (await context.admin()).createConsoleToken(ADMIN_IDENTITY, {
        accountId: options.account,
        name: options.name,
        ...(options.role !== undefined && { role: options.role }),
        ...(days !== undefined && { expiresAt: new Date(Date.now() + parseDays(days, '--expires-in-days') * DAY_MS).toISOString() }),
      });
      return [
        `New console token for ${token.accountId} (shown once; only its digest is kept):`,
        `  ${secret}`,
        json(token),
      ].join('\n');
    },
  },
  {
    name: 'console-token list',
    summary: 'Lists account console tokens (prefixes only; a token is shown once, when created).',
    options: { account: { placeholder: 'ID', description: `only this account's tokens: ${ACCOUNT_ID}` } },
    run: async ({ options }, context) => json(await (await context.admin()).listConsoleTokens(ADMIN_IDENTITY, options.account)),
  },
  {
    name: 'console-token disable',
    summary: 'Disables a console token: it stops opening the admin API and the panel at once.',
    arguments: [{ name: 'ID', description: CONSOLE_TOKEN_ID }],
    notFound: `no console token has that ID (see '${PROGRAM} console-token list')`,
    run: async ({ arguments: values }, context) =>
      json(await (await context.admin()).updateConsoleToken(ADMIN_IDENTITY, values.ID!, { status: 'disabled' })),
  },
  {
    name: 'admin-token rotate',
    summary: 'Replaces the console (admin) token and prints the new one, once. A running server switches to it within a second.',
    run: async (_input, context) => {
      if (context.environment.SIGNALBOX_ADMIN_TOKEN) {
        throw new CliError(
          'SIGNALBOX_ADMIN_TOKEN is set, and a server started with it uses that token, not the data folder\'s; change the variable and restart the server instead',
          'failure',
        );
      }
      const directory = context.dataDirectory();
      const token = rotateAdminToken(adminTokenFileIn(directory));
      return [
        'New console token (shown once; the old one no longer works):',
        `  ${token}`,
        `A server running on ${directory} accepts it within a second, without a restart.`,
      ].join('\n');
    },
  },
  {
    name: 'catalog import',
    summary:
      'Checks a price catalog file (JSON: asOf, currency, vendors with source, asOf and models) and installs it in the data folder; ' +
      'routes with pricing: catalog are priced from it at the next start instead of the shipped catalog.',
    arguments: [{ name: 'FILE', description: 'the catalog file, such as prices.json' }],
    run: async ({ arguments: values }, context) => {
      const directory = context.dataDirectory();
      const { importPriceCatalog } = loadPriceCatalogFiles();
      let imported: ReturnType<typeof importPriceCatalog>;
      try {
        imported = importPriceCatalog(values.FILE!, directory);
      } catch (error) {
        throw new CliError(`FILE ${values.FILE!}: ${(error as Error).message}`, 'failure');
      }
      const { installed, catalog } = imported;
      const vendors = Object.entries(catalog.vendors).map(([name, prices]) => `  ${name}: ${Object.keys(prices.models).length} models, as of ${prices.asOf}`);
      return [`Installed the price catalog of ${catalog.asOf} (${catalog.currency}) as ${installed}:`, ...vendors, 'A server on this data folder uses it from its next start.'].join('\n');
    },
  },
];

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

function parseUnits(value: string, name: string): number {
  if (/^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  throw new CliError(`${name} must be a number of currency units, such as 10 or 2.5 (got '${value}')`);
}

function parseDays(value: string, name: string): number {
  const days = /^\d{1,5}$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (days >= 1 && days <= 36_500) return days;
  throw new CliError(`${name} must be a whole number of days from 1 to 36500, such as 90 (got '${value.slice(0, 40)}')`);
}

function parseDate(value: string, name: string): string {
  const time = /^\d{4}-\d{2}-\d{2}$/.test(value) || /T.*(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isNaN(time)) return new Date(time).toISOString();
  throw new CliError(`${name} must be a date such as 2027-01-01, or a time with its offset such as 2027-01-01T12:00:00Z (got '${value}')`);
}

function parseList(value: string, name: string): string[] {
  const items = value.split(',').map(item => item.trim()).filter(item => item !== '');
  if (items.length > 0) return items;
  throw new CliError(`${name} needs at least one model ID, such as signalbox-sim or a,b`);
}
