import { GoogleGenAI } from '@google/genai';

/**
 * The official `@google/genai` SDK pointed at a gateway, without retries of its own. It is handed
 * the test's `fetch`: its own lookup of undici's dispatcher fails inside jest's sandbox.
 */
export function geminiClient(apiKey: string, baseUrl: string, apiVersion?: string): GoogleGenAI {
  return new GoogleGenAI({
    apiKey,
    ...(apiVersion !== undefined && { apiVersion }),
    httpOptions: { baseUrl, retryOptions: { attempts: 1 }, fetch: (url, init) => fetch(url, init) },
  });
}
