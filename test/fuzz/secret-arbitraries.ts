import fc from 'fast-check';

const BASE62 = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'];

/** A key-shaped secret: `sbx-` + 40 base62 characters (the format of the gateway's API keys). */
export const keyShapedSecret: fc.Arbitrary<string> = fc
  .string({ unit: fc.constantFrom(...BASE62), minLength: 40, maxLength: 40 })
  .map(tail => `sbx-${tail}`);

const HEX = [...'0123456789abcdef'];

/**
 * A panel session id or CSRF token as the panel makes one (32 random bytes, base64url: 43
 * characters). The recogniser knows such a run by its mix of upper- and lower-case letters, which
 * 32 random bytes lack with a chance of about 1 in 3·10⁹; byte strings that lack it (such as the
 * all-zero one shrinking tends to) are not what the panel issues.
 */
const panelToken: fc.Arbitrary<string> = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .map(bytes => Buffer.from(bytes).toString('base64url'))
  .filter(token => /[a-z]/.test(token) && /[A-Z]/.test(token));

/**
 * A secret of any kind the product issues, in its format: an API key, an admin token (`sbx-admin-` +
 * 48 hex digits), an account console token (`sbx-console-` + 40 base62), a panel session id or CSRF
 * token (43 base64url characters).
 */
export const issuedSecret: fc.Arbitrary<string> = fc.oneof(
  keyShapedSecret,
  fc.string({ unit: fc.constantFrom(...HEX), minLength: 48, maxLength: 48 }).map(tail => `sbx-admin-${tail}`),
  fc.string({ unit: fc.constantFrom(...BASE62), minLength: 40, maxLength: 40 }).map(tail => `sbx-console-${tail}`),
  panelToken,
);

/** Placeholder for the demo key in generated values (readable counterexamples; replaced when sent). */
export const DEMO_KEY = '$KEY';
/** Placeholder for the case's own key-shaped secret. */
export const SECRET = '$SECRET';
/** Placeholder for a second key-shaped secret, sent outside the credential headers. */
export const OTHER_SECRET = '$OTHER';
/** Placeholder for the console (admin) token, which is not an API key and must not come back either. */
export const ADMIN_TOKEN = '$ADMIN';

/** The real values behind the placeholders for one case. */
export type Secrets = { demoKey: string; adminToken: string; secret: string; otherSecret: string };

/** `text` with the placeholders replaced by the real demo key, console token and the case's secrets. */
export function fillPlaceholders(text: string, secrets: Secrets): string {
  return text
    .replaceAll(DEMO_KEY, secrets.demoKey)
    .replaceAll(ADMIN_TOKEN, secrets.adminToken)
    .replaceAll(OTHER_SECRET, secrets.otherSecret)
    .replaceAll(SECRET, secrets.secret);
}
