import { parseArgs } from 'node:util';
import { createAdminService } from '@switchyard/accounts';
import { createSQLiteAccountStore } from '@switchyard/store-sqlite';
import { openDataDirectory, rotateAdminToken } from './open-data-directory';

export const CLI_USAGE = `Usage: switchyard-server [command]

  (no command)                      start the server
  accounts list
  accounts create --name NAME [--balance UNITS] [--group GROUP]
  accounts top-up ACCOUNT_ID UNITS
  keys list [--account ACCOUNT_ID]
  keys create --account ACCOUNT_ID --name NAME [--expires ISO_DATE] [--models ID,ID] [--group GROUP]
  keys disable KEY_ID
  keys enable KEY_ID
  admin-token rotate                print a new console token once (the old one stops working)

Data folder: SWITCHYARD_DATA_DIR (default ./data). A created key's secret is printed once.`;

/** Runs one management command against the data folder and prints its JSON result. */
export async function runCli(argv: readonly string[], dataDirectory: string): Promise<void> {
  const { positionals, values } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      balance: { type: 'string' },
      group: { type: 'string' },
      account: { type: 'string' },
      expires: { type: 'string' },
      models: { type: 'string' },
    },
  });
  const [noun, verb, ...rest] = positionals;
  if (noun === 'admin-token' && verb === 'rotate') {
    process.stdout.write(`New console token (shown once):\n  ${rotateAdminToken(dataDirectory)}\n`);
    return;
  }
  const directory = openDataDirectory(dataDirectory);
  const store = createSQLiteAccountStore({ path: directory.databasePath, serverSecret: directory.serverSecret });
  const admin = createAdminService({ store, adminTokenDigests: directory.adminTokenDigests });
  try {
    const result = await dispatch(admin, `${noun} ${verb}`, rest, values);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await store.close();
  }
}

type Values = Record<string, string | undefined>;

async function dispatch(admin: ReturnType<typeof createAdminService>, command: string, rest: string[], values: Values) {
  switch (command) {
    case 'accounts list':
      return admin.listAccounts();
    case 'accounts create':
      return admin.createAccount({
        name: values.name,
        ...(values.balance !== undefined && { balance: Number(values.balance) }),
        ...(values.group !== undefined && { group: values.group }),
      });
    case 'accounts top-up':
      return admin.adjustBalance(required(rest[0], 'ACCOUNT_ID'), { delta: Number(required(rest[1], 'UNITS')) });
    case 'keys list':
      return admin.listKeys(values.account);
    case 'keys create':
      return admin.createKey({
        accountId: values.account,
        name: values.name,
        ...(values.expires !== undefined && { expiresAt: new Date(values.expires).toISOString() }),
        ...(values.models !== undefined && { allowedModels: values.models.split(',') }),
        ...(values.group !== undefined && { group: values.group }),
      });
    case 'keys disable':
    case 'keys enable':
      return admin.updateKey(required(rest[0], 'KEY_ID'), { status: command === 'keys disable' ? 'disabled' : 'active' });
    default:
      throw new Error(CLI_USAGE);
  }
}

function required(value: string | undefined, name: string): string {
  if (value === undefined) throw new Error(`Missing ${name}.\n\n${CLI_USAGE}`);
  return value;
}
