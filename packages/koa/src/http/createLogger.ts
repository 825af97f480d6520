import pino, { type DestinationStream, type Logger } from 'pino'

/** Paths pino blanks out wherever they appear in a log object: keys, private keys, secrets. */
export const redactPaths = [
  'apiKey',
  'key',
  'privateKey',
  'secret',
  'masterKey',
  'adminKey',
  'authorization',
  '*.apiKey',
  '*.key',
  '*.privateKey',
  '*.secret',
  '*.masterKey',
  '*.adminKey',
  '*.authorization',
  'headers["x-api-key"]',
  '*.headers["x-api-key"]',
  'req.headers["x-api-key"]',
  'req.headers.authorization',
]

export type CreateLoggerOptions = { level?: string | undefined; destination?: DestinationStream | undefined }

/**
 * The server's pino logger with secret redaction. Request logging never includes headers, bodies or
 * query strings in the first place; redaction is the second line of defence.
 * @example const logger = createLogger({ level: 'info' })
 */
export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const settings = {
    level: options.level ?? 'info',
    redact: { paths: redactPaths, censor: '[redacted]' },
    base: { service: 'agentwallet' },
  }
  return options.destination ? pino(settings, options.destination) : pino(settings)
}
