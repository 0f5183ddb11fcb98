import { checkThoughtSignatures } from './check-thought-signatures';
import { DEFAULT_CACHE_TTL_SECONDS } from './prompt-cache-usage';
import { readGeminiContents } from './read-gemini-contents';
import { asNumber, asRecord, asString } from './read-text-content';
import type { SimulatedRequest, SimulatedTool, SimulatedToolChoice } from './simulated-request';
import { isSimulatorError, simulatorError, type SimulatorError } from './simulator-error';

/** Where a Gemini request came from: the model in its path and whether the method streams. */
export type GeminiCall = { model: string; stream: boolean };

/**
 * The top-level fields of `GenerateContentRequest`, as `@google/genai` 3.3 writes them (Vertex AI
 * adds `labels` and `modelArmorConfig`), and the proto names Google's JSON binding also accepts.
 */
const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  'model', 'contents', 'systemInstruction', 'system_instruction', 'tools', 'toolConfig', 'tool_config',
  'generationConfig', 'generation_config', 'safetySettings', 'safety_settings', 'cachedContent', 'cached_content',
  'labels', 'modelArmorConfig', 'serviceTier', 'service_tier', 'store', 'continuationToken', 'outputConfig',
]);

/** How much of an unknown field name an error quotes. */
const QUOTED_NAME_LENGTH = 40;

/**
 * `POST /v1beta/models/{model}:generateContent` (and `:streamGenerateContent`) body →
 * SimulatedRequest. Refuses unknown top-level fields as Google's JSON binding does, and thought
 * signatures that did not come back as issued.
 * @see https://ai.google.dev/api/generate-content
 */
export function readGeminiRequest(body: Record<string, unknown>, call: GeminiCall): SimulatedRequest | SimulatorError {
  const unknown = Object.keys(body).find(name => !KNOWN_FIELDS.has(name));
  if (unknown !== undefined) return simulatorError(400, `Invalid JSON payload received. Unknown name "${unknown.slice(0, QUOTED_NAME_LENGTH)}": Cannot find field.`);
  const declarations = readDeclarations(body.tools);
  const prompt = readGeminiContents(body, declarations);
  if (isSimulatorError(prompt)) return prompt;
  const signatureError = checkThoughtSignatures(body.contents as unknown[], call.model);
  if (signatureError !== undefined) return signatureError;
  const config = asRecord(body.generationConfig ?? body.generation_config) ?? {};
  const functionCalling = asRecord(asRecord(body.toolConfig ?? body.tool_config)?.functionCallingConfig);
  const allowed = readAllowedNames(functionCalling?.allowedFunctionNames);
  return {
    model: call.model,
    stream: call.stream,
    lastUserText: prompt.lastUserText,
    inputCharacters: prompt.characters,
    promptBlocks: prompt.blocks,
    promptCacheKey: undefined,
    promptCacheTtlSeconds: DEFAULT_CACHE_TTL_SECONDS,
    maxOutputTokens: asNumber(config.maxOutputTokens),
    stopSequences: Array.isArray(config.stopSequences) ? config.stopSequences.filter((entry): entry is string => typeof entry === 'string') : [],
    tools: readTools(declarations, allowed),
    toolChoice: readToolChoice(asString(functionCalling?.mode), allowed),
    parallelToolCalls: true,
    trailingToolResults: prompt.trailingToolResults,
    toolResultsSinceUserText: prompt.toolResultsSinceUserText,
    reasoning: thinks(call.model, asRecord(config.thinkingConfig)),
    includeEncryptedReasoning: false,
    includeStreamUsage: false,
    responseSchema: readResponseSchema(config),
    body,
  };
}

/** Every `functionDeclarations` entry of every tool, in order. */
export function readDeclarations(tools: unknown): Record<string, unknown>[] {
  if (!Array.isArray(tools)) return [];
  const declarations: Record<string, unknown>[] = [];
  for (const tool of tools) {
    const entries = asRecord(tool)?.functionDeclarations ?? asRecord(tool)?.function_declarations;
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) {
      const declaration = asRecord(entry);
      if (declaration !== undefined) declarations.push(declaration);
    }
  }
  return declarations;
}

function readTools(declarations: readonly Record<string, unknown>[], allowed: readonly string[] | undefined): SimulatedTool[] {
  const tools: SimulatedTool[] = [];
  for (const declaration of declarations) {
    const name = asString(declaration.name);
    if (name === undefined || (allowed !== undefined && !allowed.includes(name))) continue;
    const parameters = declaration.parametersJsonSchema ?? declaration.parameters ?? { type: 'object', properties: {} };
    tools.push({ name, description: asString(declaration.description) ?? '', parameters });
  }
  return tools;
}

function readAllowedNames(names: unknown): string[] | undefined {
  if (!Array.isArray(names) || names.length === 0) return undefined;
  return names.filter((name): name is string => typeof name === 'string');
}

/** `functionCallingConfig.mode`: `ANY` must call (the one allowed function, when only one is), `NONE` must not. */
function readToolChoice(mode: string | undefined, allowed: readonly string[] | undefined): SimulatedToolChoice {
  if (mode === 'NONE') return { type: 'none' };
  if (mode !== 'ANY') return { type: 'auto' };
  return allowed?.length === 1 ? { type: 'tool', name: allowed[0] as string } : { type: 'required' };
}

/**
 * Whether the model thinks: as asked by `thinkingConfig` (a budget of 0 turns it off), else as the
 * model does by default (Gemini 3 and the 2.5 Pro and Flash models think; Flash-Lite does not).
 * @see https://ai.google.dev/gemini-api/docs/thinking
 */
function thinks(model: string, thinkingConfig: Record<string, unknown> | undefined): boolean {
  if (thinkingConfig?.thinkingBudget === 0) return false;
  if (thinkingConfig !== undefined && (thinkingConfig.thinkingBudget !== undefined || thinkingConfig.thinkingLevel !== undefined || thinkingConfig.includeThoughts === true)) return true;
  return model.startsWith('gemini-3') || (model.startsWith('gemini-2.5') && !model.includes('lite'));
}

/** Structured output: the schema of a JSON answer (`{}` when JSON is asked for without one). */
function readResponseSchema(config: Record<string, unknown>): unknown {
  if (config.responseMimeType !== 'application/json') return undefined;
  return config.responseJsonSchema ?? config.responseSchema ?? {};
}
