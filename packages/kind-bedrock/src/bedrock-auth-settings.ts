import { z } from 'zod';

/**
 * `upstreams.X.auth` of a `bedrock` upstream that signs its calls with AWS SigV4 instead of
 * sending a Bedrock API key. The credentials come from the AWS SDK's default chain; every value
 * here is a name, never a secret.
 */
export const bedrockAuthSettingsSchema = z
  .object({
    type: z.literal('aws'),
    /** The shared-config profile the chain reads (`~/.aws/config`, `~/.aws/credentials`, SSO). Default `AWS_PROFILE`, else `default`. */
    profile: z.string().min(1).optional(),
    /** The region signed for. Default the one in the base URL's host (`bedrock-runtime.{region}.amazonaws.com`), else `AWS_REGION`. */
    region: z.string().regex(/^[a-z0-9-]+$/, 'must be an AWS region such as us-east-1').optional(),
  })
  .strict();

export type BedrockAuthSettings = z.output<typeof bedrockAuthSettingsSchema>;

/** What is wrong with an upstream's `auth`, one line per issue (dotted path first). */
export function checkBedrockAuthSettings(auth: unknown): string[] {
  if (auth === undefined) return [];
  const parsed = bedrockAuthSettingsSchema.safeParse(auth);
  if (parsed.success) return [];
  return parsed.error.issues.map(issue => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
}

const REGIONAL_HOST = /^bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?$/;

/** The region a call is signed for: the settings', the one named in a regional endpoint's host, or the environment's. */
export function regionOf(
  settings: BedrockAuthSettings,
  baseURL: string,
  environment: Readonly<Record<string, string | undefined>>,
): string | undefined {
  return settings.region ?? REGIONAL_HOST.exec(new URL(baseURL).hostname)?.[1] ?? environment['AWS_REGION'] ?? environment['AWS_DEFAULT_REGION'];
}
