import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Logger } from 'pino'
import type { ErrorEnvelope } from './errorEnvelope.js'
import { type HttpErrorCode, statusByCode } from './statusByCode.js'

/** Node's codes for a request it could not parse or did not receive in time, as ours. */
function refusalOf(nodeCode: string | undefined): { code: HttpErrorCode; message: string } {
  if (nodeCode === 'HPE_HEADER_OVERFLOW')
    return { code: 'header_too_large', message: 'Request headers are too large' }
  if (nodeCode === 'ERR_HTTP_REQUEST_TIMEOUT' || nodeCode === 'HPE_REQUEST_TIMEOUT')
    return { code: 'request_timeout', message: 'The request was not received in time' }
  return {
    code: 'validation_failed',
    message: 'Malformed HTTP request (its framing, Content-Length or headers do not parse)',
  }
}

/**
 * The server's `clientError` listener: a request Node's parser refuses (a `Content-Length` that lies
 * or repeats, a body cut short by the client, bad framing, headers too large, too slow) gets our
 * envelope instead of Node's bare `400 Bad Request`, then the connection is closed. Never logs the
 * raw bytes: they may hold an API key.
 * @example server.on('clientError', (error, socket) => answerClientError(error, socket, logger))
 */
export function answerClientError(
  error: Error & { code?: string; reason?: string },
  socket: Duplex,
  logger?: Logger,
): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy()
    return
  }
  const { code, message } = refusalOf(error.code)
  const status = statusByCode[code]
  const envelope: ErrorEnvelope = {
    success: false,
    error: { code, message, details: { parserError: error.code ?? 'unknown' } },
  }
  logger?.info({ status, parserError: error.code }, 'malformed request refused')
  const body = JSON.stringify(envelope)
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  )
}
