// An OpenID Connect provider for the panel's single sign-on tests: oidc-provider (a certified
// implementation) on 127.0.0.1, run by node as a program of its own (it is ESM-only).
// It prints {"issuer"} once it listens and answers 503 until it reads one line on stdin,
// {"clientId","clientSecret","redirectURI","users"}; then it serves and prints "ready".
// Users sign in on a plain form by name (no password); PKCE is required of every client, and the
// grant is given without a consent page. Claims other than `sub` come from the userinfo endpoint.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import Provider from 'oidc-provider';

let handle = (_request, response) => {
  response.writeHead(503, { 'content-type': 'text/plain' }).end('not configured yet');
};
const server = createServer((request, response) => handle(request, response));
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const issuer = `http://127.0.0.1:${server.address().port}`;
process.stdout.write(`${JSON.stringify({ issuer })}\n`);

const lines = createInterface({ input: process.stdin });
const [line] = await once(lines, 'line');
const { clientId, clientSecret, redirectURI, users } = JSON.parse(line);
const provider = createProvider();
const callback = provider.callback();
handle = (request, response) => {
  const interaction = /^\/interaction\/([\w-]+)$/.exec(new URL(request.url, issuer).pathname);
  if (!interaction) return callback(request, response);
  const step = request.method === 'POST' ? finishLogin : showLoginForm;
  step(request, response).catch(error => {
    response.writeHead(400, { 'content-type': 'text/plain' }).end(String(error.message));
  });
};
process.stdout.write('ready\n');
lines.on('close', () => server.close());

function createProvider() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectURI],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'signing', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    scopes: ['openid', 'email', 'profile', 'groups'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    findAccount: (_context, sub) => (users[sub] ? { accountId: sub, claims: () => ({ sub, ...users[sub] }) } : undefined),
    interactions: { url: (_context, interaction) => `/interaction/${interaction.uid}` },
    loadExistingGrant: giveGrant,
  });
}

/** The grant for what the client asked, made at once: a first-party client needs no consent page. */
async function giveGrant(context) {
  const { client, session, params } = context.oidc;
  const existing = session.grantIdFor(client.clientId);
  if (existing) return context.oidc.provider.Grant.find(existing);
  const grant = new context.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
  grant.addOIDCScope(String(params.scope));
  await grant.save();
  session.grantIdFor(client.clientId, grant.jti);
  return grant;
}

async function showLoginForm(request, response) {
  const { uid } = await provider.interactionDetails(request, response);
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
    `<!doctype html><title>Test provider</title><h1>Test provider</h1>
<form method="post" action="/interaction/${uid}"><label for="login">User</label> <input id="login" name="login"> <button type="submit">Sign in</button></form>`,
  );
}

async function finishLogin(request, response) {
  let body = '';
  for await (const chunk of request) body += chunk;
  const login = new URLSearchParams(body).get('login') ?? '';
  const result = users[login] ? { login: { accountId: login } } : { error: 'access_denied', error_description: 'no such user' };
  await provider.interactionFinished(request, response, result, { mergeWithLastSubmission: false });
}
