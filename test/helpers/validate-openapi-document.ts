import { spawnSync } from 'node:child_process';

/** What `@seriousme/openapi-schema-validator` says of a document. */
export type OpenAPIValidation = { valid: boolean; version?: string; errors?: unknown };

/**
 * Validates an OpenAPI document with `@seriousme/openapi-schema-validator` (strict mode, against the
 * official OpenAPI 3.1 schema). The validator is ESM-only and reads its schemas through
 * `import.meta.url`, which jest's CommonJS transform cannot run, so it runs in a Node process of
 * its own, the document on its standard input.
 */
export function validateOpenAPIDocument(document: unknown): OpenAPIValidation {
  const script = `
    import { Validator } from '@seriousme/openapi-schema-validator';
    let input = '';
    for await (const chunk of process.stdin) input += chunk;
    const validator = new Validator({ strict: true });
    const result = await validator.validate(JSON.parse(input));
    process.stdout.write(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors }));
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { input: JSON.stringify(document), encoding: 'utf8', cwd: __dirname });
  if (child.status !== 0) throw new Error(`The OpenAPI validator failed to run: ${child.stderr}`);
  return JSON.parse(child.stdout) as OpenAPIValidation;
}
