/** An upstream's answer with its body still unread; the body is a stream of byte chunks. */
export type UpstreamResponse = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Uint8Array> & { destroy?: (error?: Error) => void };
  /** Reads the whole body as text (for JSON answers and error bodies). */
  text(): Promise<string>;
};

/** One call to an upstream: a path under its base URL, a serialized JSON body and extra headers. */
export type UpstreamRequest = {
  path: string;
  body: string;
  headers?: Readonly<Record<string, string>>;
};
