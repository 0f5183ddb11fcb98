import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { stopProcess } from './throwaway-process';

/** A person the provider signs in, by name: the claims the userinfo endpoint gives beside `sub`. */
export type ProviderUser = { email?: string; email_verified?: boolean; name?: string; groups?: string[] };

export type OidcProvider = {
  /** `http://127.0.0.1:<port>`, known as soon as it listens. */
  issuer: string;
  /**
   * Registers the one client (its redirect URI is the gateway's, known once the gateway listens)
   * and the users; until then every request is answered 503.
   */
  configure(client: { clientId: string; clientSecret: string; redirectURI: string; users: Record<string, ProviderUser> }): Promise<void>;
  close(): Promise<void>;
};

/** Starts test/helpers/oidc-provider-program.mjs (oidc-provider on 127.0.0.1) with node. */
export async function startOidcProvider(): Promise<OidcProvider> {
  const child = spawn(process.execPath, [join(__dirname, 'oidc-provider-program.mjs')], { stdio: ['pipe', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  const next = async (): Promise<string> => {
    const [line] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [undefined])])) as [string | undefined];
    if (line === undefined) throw new Error(`the OpenID Connect provider exited: ${errors}`);
    return line;
  };
  const { issuer } = JSON.parse(await next()) as { issuer: string };
  return {
    issuer,
    async configure(client) {
      child.stdin.write(`${JSON.stringify(client)}\n`);
      if ((await next()) !== 'ready') throw new Error(`the OpenID Connect provider did not start: ${errors}`);
    },
    async close() {
      child.stdin.end();
      await stopProcess(child, 'SIGTERM');
    },
  };
}
