export { createKeepAlive, type KeepAlive } from './create-keep-alive';
export { createSSEDecoder, type SSEDecoder } from './create-sse-decoder';
export { formatSSEComment, formatSSEFrame } from './format-sse-frame';
