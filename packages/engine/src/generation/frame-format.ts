import type { SSEMessage } from '@signalbox/core';

/** The text of one stream message as its transport sends it: an SSE frame (`formatSSEFrame`), or a WebSocket frame's. */
export type FrameFormat = (message: SSEMessage) => string;
