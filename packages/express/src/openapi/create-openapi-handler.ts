import type { JSONObject } from '@signalbox/core';
import type { RequestHandler } from 'express';
import { buildOpenAPIDocument, type OpenAPIDocumentOptions } from './build-openapi-document';

export type OpenAPIHandlerOptions = Omit<OpenAPIDocumentOptions, 'serverURL'>;

/**
 * `GET /openapi.json`: the gateway's OpenAPI 3.1 document, public (it holds no secret: the paths,
 * schemas and model IDs any client may list). Built on the first request and kept, once per mount
 * point (the server URL is where the gateway is mounted, so an API client imports working paths).
 *
 * @example router.get('/openapi.json', createOpenAPIHandler({ engine }))
 */
export function createOpenAPIHandler(options: OpenAPIHandlerOptions): RequestHandler {
  const documents = new Map<string, string>();
  return function openAPIHandler(request, response) {
    const serverURL = request.baseUrl === '' ? '/' : request.baseUrl;
    let document = documents.get(serverURL);
    if (document === undefined) {
      document = JSON.stringify(buildOpenAPIDocument({ ...options, serverURL }) satisfies JSONObject);
      documents.set(serverURL, document);
    }
    response.status(200).type('application/json').send(document);
  };
}
