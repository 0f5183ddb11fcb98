import { randomBytes } from 'node:crypto';
import type { KnownAWSKey } from './start-bedrock-emulator';
import { listenOnLoopback } from './listen-on-loopback';

export type AWSContainerCredentials = {
  /** The URL to put in `AWS_CONTAINER_CREDENTIALS_FULL_URI`. */
  url: string;
  /** The token to put in `AWS_CONTAINER_AUTHORIZATION_TOKEN`. */
  authorizationToken: string;
  /** Every key handed out, by access key ID. */
  issued: Map<string, KnownAWSKey>;
  /** Requests refused for a missing or wrong authorization token. */
  refused: number;
  close(): Promise<void>;
};

/**
 * The ECS/EKS container credentials endpoint on 127.0.0.1: each GET with the right
 * `Authorization` token hands out a new temporary key (ID, secret, session token) that expires
 * `lifetimeSeconds` later, in the JSON shape the AWS SDK reads.
 */
export async function startAWSContainerCredentials(lifetimeSeconds = 2): Promise<AWSContainerCredentials> {
  const authorizationToken = randomBytes(16).toString('hex');
  const issued = new Map<string, KnownAWSKey>();
  const state = { refused: 0 };
  const server = await listenOnLoopback((request, response) => {
    if (request.headers.authorization !== authorizationToken) {
      state.refused += 1;
      response.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Access denied' }));
      return;
    }
    const accessKeyId = `ASIA${randomBytes(8).toString('hex').toUpperCase()}`;
    const key = { secretAccessKey: randomBytes(30).toString('base64'), sessionToken: `IQoJb3JpZ2luX2Vj${randomBytes(48).toString('base64')}` };
    issued.set(accessKeyId, key);
    const expiration = new Date(Date.now() + lifetimeSeconds * 1000).toISOString();
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ AccessKeyId: accessKeyId, SecretAccessKey: key.secretAccessKey, Token: key.sessionToken, Expiration: expiration, RoleArn: 'arn:aws:iam::123456789012:role/gateway' }));
  });
  return {
    url: `${server.url}/v2/credentials/gateway`,
    authorizationToken,
    issued,
    get refused() {
      return state.refused;
    },
    close: server.close,
  };
}
