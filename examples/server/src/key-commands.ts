import { ADMIN_IDENTITY } from '@signalbox/accounts';
import { ACCOUNT_ID, GROUP, PROGRAM, type CliCommand, type CliInput } from './cli-command';
import { json, parseDate, parseModelList, parseWhole } from './parse-cli-values';

const KEY_ID = "the key id from 'keys list'";

/** The key limits the panel's key form sets, as flags, and the admin API's `limits` member each one is. */
const LIMIT_FLAGS = {
  'requests-per-minute': { member: 'requests', description: 'the most requests the key may make per minute (default: the server\'s limits.default)' },
  'tokens-per-minute': { member: 'tokens', description: 'the most tokens (input and output) the key may use per minute' },
  'requests-in-flight': { member: 'concurrency', description: 'the most requests of the key running at once' },
} as const;

/** The `limits` of a new key from its limit flags; `undefined` when none is given. */
function readLimits(options: CliInput['options']): Record<string, number> | undefined {
  const entries = Object.entries(LIMIT_FLAGS).flatMap(([flag, { member }]) =>
    options[flag] === undefined ? [] : [[member, parseWhole(options[flag], `--${flag}`)] as const],
  );
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/** `keys list`, `keys create`, `keys disable`, `keys enable`. */
export const KEY_COMMANDS: readonly CliCommand[] = [
  {
    name: 'keys list',
    summary: 'Lists API keys (prefixes only; a secret is shown once, when created).',
    options: { account: { placeholder: 'ID', description: `only this account's keys: ${ACCOUNT_ID}` } },
    run: async ({ options }, context) => json(await (await context.admin()).listKeys(ADMIN_IDENTITY, options.account)),
  },
  {
    name: 'keys create',
    summary: 'Creates an API key: its secret on stderr, once; the key on stdout.',
    options: {
      account: { placeholder: 'ID', description: ACCOUNT_ID, required: true },
      name: { placeholder: 'N', description: 'a label for the key, such as laptop', required: true },
      expires: { placeholder: '2027-01-01', description: 'when the key stops working: a date, or an ISO 8601 time with its offset' },
      models: { placeholder: 'a,b', description: 'the only model IDs the key may use, comma-separated, each a route of the server (default: every model)' },
      group: { placeholder: 'g', description: GROUP },
      ...Object.fromEntries(Object.entries(LIMIT_FLAGS).map(([flag, { description }]) => [flag, { placeholder: 'N', description }])),
    },
    fields: { accountId: '--account', name: '--name', expiresAt: '--expires', allowedModels: '--models', group: '--group' },
    notFound: `no account has that --account id (see '${PROGRAM} accounts list')`,
    run: async ({ options }, context) => {
      const limits = readLimits(options);
      const input = {
        accountId: options.account,
        name: options.name,
        ...(options.expires !== undefined && { expiresAt: parseDate(options.expires, '--expires') }),
        ...(options.models !== undefined && { allowedModels: parseModelList(options.models, '--models', await context.routeModels()) }),
        ...(options.group !== undefined && { group: options.group }),
        ...(limits && { limits }),
      };
      const { secret, key } = await (await context.admin()).createKey(ADMIN_IDENTITY, input);
      context.revealSecret(`New API key ${key.id} for ${key.accountId}`, secret);
      return json(key);
    },
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
];
