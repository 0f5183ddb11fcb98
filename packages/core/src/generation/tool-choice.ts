/** Whether the model must call a tool: as it decides (`auto`), never, at least one, or the named one. */
export type ToolChoice =
  | { type: 'auto' }
  | { type: 'none' }
  | { type: 'required' }
  | { type: 'tool'; name: string };
