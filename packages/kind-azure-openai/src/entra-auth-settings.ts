import { z } from 'zod';

const variableName = z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'must be an environment variable name');

/** The scope of an Azure OpenAI token: the Cognitive Services resource. */
export const AZURE_OPENAI_SCOPE = 'https://cognitiveservices.azure.com/.default';

/**
 * `upstreams.X.auth` of an `azure-openai` upstream that signs in with Microsoft Entra ID instead
 * of an `api-key`. `source` picks where the identity comes from; every value is an ID, a variable
 * name or a file path, never a secret.
 */
export const entraAuthSettingsSchema = z
  .object({
    type: z.literal('entra'),
    /**
     * `default`: `DefaultAzureCredential` (the `AZURE_*` environment, workload identity, managed
     * identity, the Azure CLI); `client-secret`, `client-certificate`, `workload-identity`,
     * `managed-identity`: that source alone.
     */
    source: z.enum(['default', 'client-secret', 'client-certificate', 'workload-identity', 'managed-identity']).default('default'),
    /** The directory (tenant) ID; default the `AZURE_TENANT_ID` variable. */
    tenantId: z.string().min(1).optional(),
    /** The application (client) ID, or a user-assigned managed identity's; default the `AZURE_CLIENT_ID` variable. */
    clientId: z.string().min(1).optional(),
    /** `client-secret`: the variable holding the client secret. Default `AZURE_CLIENT_SECRET`. */
    clientSecretEnv: variableName.optional(),
    /** `client-certificate`: the PEM file with the certificate and its private key. Default the `AZURE_CLIENT_CERTIFICATE_PATH` variable. */
    certificatePath: z.string().min(1).optional(),
    /** The Entra authority for a sovereign cloud (`https://login.microsoftonline.us`). Default the public cloud's. */
    authorityHost: z.url({ protocol: /^https$/ }).optional(),
    /** Skips the authority's metadata lookup: for an authority Microsoft does not list (Azure Stack, a private cloud). */
    disableInstanceDiscovery: z.boolean().default(false),
    /** The token's scope. Default `https://cognitiveservices.azure.com/.default`. */
    scope: z.string().min(1).default(AZURE_OPENAI_SCOPE),
  })
  .strict();

export type EntraAuthSettings = z.output<typeof entraAuthSettingsSchema>;

/** What is wrong with an upstream's `auth`, one line per issue (dotted path first). */
export function checkEntraAuthSettings(auth: unknown): string[] {
  if (auth === undefined) return [];
  const parsed = entraAuthSettingsSchema.safeParse(auth);
  if (!parsed.success) return parsed.error.issues.map(issue => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
  const settings = parsed.data;
  const problems: string[] = [];
  if (settings.clientSecretEnv !== undefined && settings.source !== 'client-secret') problems.push('clientSecretEnv: only for source "client-secret"');
  if (settings.certificatePath !== undefined && settings.source !== 'client-certificate') problems.push('certificatePath: only for source "client-certificate"');
  return problems;
}
