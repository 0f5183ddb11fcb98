/**
 * A request field named by its path: already dotted (`messages.0.content.1.type`) or as segments
 * (`['messages', 0, 'content', 1, 'type']`), the way schema libraries report issue paths.
 */
export type FieldPath = string | readonly PropertyKey[];

/** The dotted form of a field path, as error messages and `param` show it. */
export function formatFieldPath(path: FieldPath): string {
  return typeof path === 'string' ? path : path.map(String).join('.');
}
