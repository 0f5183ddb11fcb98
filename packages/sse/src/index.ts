export { createKeepAlive, type KeepAlive, type KeepAliveWriter } from './create-keep-alive';
export { createSSEDecoder, type SSEDecoder } from './create-sse-decoder';
export { formatSSEComment, formatSSEFrame } from './format-sse-frame';
