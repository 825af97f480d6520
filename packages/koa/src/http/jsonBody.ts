import { ValidationError } from '@agentwallet/core'
import type { Middleware } from 'koa'
import { HttpError } from './httpError.js'
import type { AppState } from './types.js'

export type JsonBodyOptions = { limitBytes: number }

/**
 * Reads a JSON request body into `ctx.state.body`, enforcing the size limit while streaming (413),
 * refusing other media types and any content coding (415: a compressed body is never inflated, so the
 * limit is on what we hold) and malformed JSON (400). An empty body is `undefined`.
 * @example app.use(jsonBody({ limitBytes: 100_000 }))
 */
export function jsonBody({ limitBytes }: JsonBodyOptions): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.method === 'GET' || ctx.method === 'HEAD' || ctx.method === 'OPTIONS') return next()
    const declared = Number(ctx.get('content-length') || '0')
    if (declared > limitBytes) throw tooLarge(limitBytes)
    const raw = await readLimited(ctx.req, limitBytes)
    if (raw.length > 0) {
      const encoding = ctx.get('content-encoding').trim().toLowerCase()
      if (encoding !== '' && encoding !== 'identity') {
        ctx.set('accept-encoding', 'identity')
        throw new HttpError(
          'unsupported_media_type',
          'Send the request body uncompressed (no Content-Encoding)',
          {
            details: { contentEncoding: encoding.slice(0, 50) },
          },
        )
      }
      if (!ctx.is('application/json', '+json')) {
        throw new HttpError('unsupported_media_type', 'Send the request body as application/json')
      }
      try {
        ctx.state.body = JSON.parse(raw.toString('utf8'))
      } catch {
        throw new ValidationError('Request body is not valid JSON')
      }
    }
    await next()
  }
}

async function readLimited(stream: AsyncIterable<Buffer | string>, limitBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of stream) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      size += buffer.length
      // Stop reading at the limit: a huge body must not be buffered just to be refused.
      if (size > limitBytes) throw tooLarge(limitBytes)
      chunks.push(buffer)
    }
  } catch (error) {
    if (error instanceof HttpError) throw error
    // The client went away mid-body (fewer bytes than its Content-Length): its fault, not a 500.
    throw new ValidationError('The request body ended before its Content-Length', { cause: error })
  }
  return Buffer.concat(chunks)
}

function tooLarge(limitBytes: number): HttpError {
  return new HttpError('payload_too_large', `Request body exceeds ${limitBytes} bytes`, {
    details: { limitBytes },
  })
}
