// Types of check-aws-signature.mjs, for the tests that import it.

export type AWSSignatureCheck = {
  method: string;
  path: string;
  /** The request's headers as received (lower-case names). */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: string;
  service: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  authorization: string;
  signedHeaderNames: readonly string[];
};

export function awsSignatureMatches(check: AWSSignatureCheck): boolean;
