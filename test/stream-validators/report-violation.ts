/** Where a validator is in the stream: the index and name of the event being checked. */
export type ViolationContext = {
  violations: string[];
  index: number;
  label: string;
};

/** Records one broken rule, prefixed with the event index and name so a failing test points at the frame. */
export function reportViolation(context: ViolationContext, message: string): void {
  context.violations.push(`event #${context.index} (${context.label}): ${message}`);
}

/** Moves the context past the last frame, for rules checked once the stream has ended. */
export function enterEndOfStream(context: ViolationContext, messageCount: number): void {
  context.index = messageCount;
  context.label = 'end of stream';
}
