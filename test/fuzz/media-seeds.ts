/**
 * Bodies with the parts whose refusals name a client's value (media types, URLs, documents, tools,
 * formats, a stored response that does not exist), with no string of 12 characters or more that a
 * refusal or log line holds anyway (the log audit would take it for a leak: not `application/pdf`).
 */
export const MEDIA_SEEDS = {
  responses: [
    {
      model: 'signalbox-sim',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Compare these.' },
            { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'auto' },
            { type: 'input_file', file_data: 'data:application/pdf;base64,JVBERi0xLjQ=', filename: 'a.pdf' },
            { type: 'input_file', file_url: 'https://example.com/a.pdf' },
          ],
        },
      ],
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object', properties: {} } }, verbosity: 'low' },
      reasoning: { effort: 'low', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      truncation: 'auto',
      tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: {} } }],
      tool_choice: { type: 'function', name: 'lookup' },
    },
    { model: 'signalbox-sim', input: [{ role: 'user', content: 'And then?' }], previous_response_id: 'resp_gone1' },
  ],
  messages: [
    {
      model: 'signalbox-sim',
      max_tokens: 2048,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Plain notes.' } },
            { type: 'text', text: 'Compare these.', cache_control: { type: 'ephemeral', ttl: '5m' } },
          ],
        },
      ],
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: [{ name: 'lookup', input_schema: { type: 'object', properties: {} } }],
      tool_choice: { type: 'tool', name: 'lookup' },
    },
  ],
  chat: [
    {
      model: 'signalbox-sim',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare these.' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } },
            { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
            { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0xLjQ=', filename: 'a.pdf' } },
          ],
        },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object', properties: {} } } },
      reasoning_effort: 'low',
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }],
      tool_choice: { type: 'function', function: { name: 'lookup' } },
    },
  ],
  gemini: [
    {
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'Compare these.' },
            { inlineData: { mimeType: 'text/plain', data: 'UGxhaW4gbm90ZXMu' } },
            { inlineData: { mimeType: 'image/jpeg', data: '/9j/4AAQ' } },
            { fileData: { mimeType: 'image/png', fileUri: 'https://example.com/a.png' } },
          ],
        },
      ],
      generationConfig: { responseMimeType: 'text/plain', responseSchema: { type: 'OBJECT', properties: { a: { type: 'STRING' } } } },
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['lookup'] } },
      tools: [{ functionDeclarations: [{ name: 'lookup', parameters: { type: 'OBJECT', properties: {} } }] }],
    },
  ],
} as const satisfies Record<string, readonly Record<string, unknown>[]>;
