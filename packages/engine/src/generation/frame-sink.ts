/** Where a stream's SSE text goes: the transport (an Express response, a test buffer). */
export interface FrameSink {
  /** Writes SSE text; `false` means "wait for `drained()` before writing more". */
  write(text: string): boolean;
  /** Resolves when the sink can take more; rejects if it went away. */
  drained(): Promise<void>;
}
