/** The request line and headers of a WebSocket opening handshake, as a browser or Codex sends it, for a raw connection. */
export function webSocketHandshake(path: string, extraHeaders = ''): string {
  return (
    `GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: Upgrade\r\nupgrade: websocket\r\n` +
    `sec-websocket-version: 13\r\nsec-websocket-key: ${Buffer.from('signalbox-test!').toString('base64')}\r\n${extraHeaders}\r\n`
  );
}
