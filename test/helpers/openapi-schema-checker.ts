import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** Validates values against the schemas of one OpenAPI 3.1 document (JSON Schema 2020-12, with formats). */
export type OpenAPISchemaChecker = {
  /**
   * The errors of `value` against the schema at `pointer` in the document (a JSON Pointer such as
   * `/components/schemas/Response`), or `[]` when it is valid.
   */
  errorsOf(pointer: string, value: unknown): string[];
};

/** Compiles schemas of `document` on demand with ajv's 2020-12 dialect; `$ref`s resolve inside the document. */
export function createOpenAPISchemaChecker(document: object): OpenAPISchemaChecker {
  // Not strict: the document's top level (`openapi`, `paths`, …) is not a schema, only the pointed-to parts are.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi.json');
  return {
    errorsOf(pointer, value) {
      const validate = ajv.getSchema(`openapi.json#${pointer}`);
      if (!validate) throw new Error(`No schema at ${pointer}`);
      return validate(value) ? [] : (validate.errors ?? []).map(error => `${error.instancePath || '/'} ${error.message ?? ''}`);
    },
  };
}

/** The JSON Pointer of an operation's request or response schema (`~1` for each `/` of the path). */
export function operationSchemaPointer(path: string, method: string, part: { request: string } | { status: string; mediaType?: string }): string {
  const escape = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');
  const operation = `/paths/${escape(path)}/${method}`;
  if ('request' in part) return `${operation}/requestBody/content/${escape(part.request)}/schema`;
  return `${operation}/responses/${part.status}/content/${escape(part.mediaType ?? 'application/json')}/schema`;
}
