import { z } from 'zod';

/** The scope of a Vertex AI access token: Google Cloud as a whole, which covers `aiplatform.endpoints.predict`. */
export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

/**
 * `upstreams.X.auth` of a `vertex` upstream: where its Google credential comes from. Every value
 * is a file path or a scope, never a secret. Without `auth`, or without `keyFile`, the credential
 * is Application Default Credentials (`GOOGLE_APPLICATION_CREDENTIALS`, gcloud's file, workload
 * identity, the metadata server).
 */
export const googleAuthSettingsSchema = z
  .object({
    type: z.literal('google'),
    /** A service-account key file (or any credential file gcloud writes, such as workload identity federation's). Default: Application Default Credentials. */
    keyFile: z.string().min(1).optional(),
    /** The access token's scope. Default `https://www.googleapis.com/auth/cloud-platform`. */
    scope: z.string().min(1).default(CLOUD_PLATFORM_SCOPE),
  })
  .strict();

export type GoogleAuthSettings = z.output<typeof googleAuthSettingsSchema>;

/** What is wrong with an upstream's `auth`, one line per issue (dotted path first). */
export function checkGoogleAuthSettings(auth: unknown): string[] {
  if (auth === undefined) return [];
  const parsed = googleAuthSettingsSchema.safeParse(auth);
  if (parsed.success) return [];
  return parsed.error.issues.map(issue => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
}
