import { ADMIN_IDENTITY } from '@signalbox/accounts';
import { rotateAdminToken } from './admin-token-file';
import { ACCOUNT_ID, CliError, GROUP, PROGRAM, type CliCommand } from './cli-command';
import { KEY_COMMANDS } from './key-commands';
import { loadPriceCatalogFiles } from './load-on-demand';
import { adminTokenFileIn } from './open-data-directory';
import { json, parseDays, parseUnits } from './parse-cli-values';

const CONSOLE_TOKEN_ID = "the console token id from 'console-token list'";
const DAY_MS = 24 * 60 * 60 * 1000;

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
  ...KEY_COMMANDS,
  {
    name: 'console-token create',
    summary: "Creates a console token for one account and prints it on stderr, once: a login to the admin API and the panel that sees only that account's keys, usage and balance.",
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
      context.revealSecret(`New console token ${token.id} for ${token.accountId}`, secret);
      return json(token);
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
    summary: 'Replaces the console (admin) token and prints the new one on stderr, once. A running server switches to it within a second.',
    run: async (_input, context) => {
      if (context.environment.SIGNALBOX_ADMIN_TOKEN) {
        throw new CliError(
          'SIGNALBOX_ADMIN_TOKEN is set, and a server started with it uses that token, not the data folder\'s; change the variable and restart the server instead',
          'failure',
        );
      }
      const directory = context.dataDirectory();
      const token = rotateAdminToken(adminTokenFileIn(directory));
      context.revealSecret('New admin token', token);
      return `The old admin token no longer works; a server running on ${directory} accepts the new one within a second, without a restart.`;
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
