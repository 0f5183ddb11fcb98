import type { RequestShape } from '@signalbox/core';
import type { Request } from 'express';

/** What the codecs' `recognizes` reads of a request Express parsed. */
export function requestShapeOf(request: Request): RequestShape {
  return { method: request.method, path: request.path, headerNames: new Set(Object.keys(request.headers)) };
}

/** The same, for the raw bytes Node's HTTP parser could read (request line first, then headers). */
export function requestShapeOfRaw(raw: string): RequestShape {
  const [requestLine = '', ...headerLines] = raw.split('\r\n');
  const [method = '', target = ''] = requestLine.split(' ');
  const headerNames = new Set(headerLines.map(line => line.slice(0, Math.max(0, line.indexOf(':'))).trim().toLowerCase()));
  return { method, path: target.split('?')[0]!, headerNames };
}
