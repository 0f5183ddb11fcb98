/** One Server-Sent Event after framing, before its data is parsed; a `comment` frame has no event. */
export type SSEMessage = {
  event?: string | undefined;
  data: string;
  id?: string | undefined;
};
