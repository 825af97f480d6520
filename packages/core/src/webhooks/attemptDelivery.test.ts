import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createServer as createTlsServer } from 'node:tls'
import { afterEach, describe, expect, it } from 'vitest'
import { attemptDelivery } from './attemptDelivery.js'
import type { WebhookTarget } from './resolveWebhookTarget.js'

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

/** An HTTP server on 127.0.0.1 that answers `reply` and keeps the headers it was sent. */
async function replying(reply: string): Promise<{ port: number; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = []
  const server = createServer((request, response) => {
    seen.push(request.headers)
    request.resume().on('end', () => response.writeHead(500).end(reply))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(() => new Promise((resolve) => server.close(() => resolve())))
  return { port: (server.address() as AddressInfo).port, seen }
}

/** A target for `url`, pinned to 127.0.0.1 whatever its host says. */
const pinned = (url: string, isPrivate: boolean): WebhookTarget => ({
  url: new URL(url),
  address: '127.0.0.1',
  family: 4,
  private: isPrivate,
})

const send = (target: WebhookTarget) =>
  attemptDelivery({ target, body: '{}', headers: {}, timeoutMs: 5_000, now: () => new Date() })

describe('attemptDelivery', () => {
  it('connects to the pinned address with the URL host as Host header, and keeps an excerpt of a public reply only', async () => {
    const reply = `internal: ${'x'.repeat(600)}`
    const { port, seen } = await replying(reply)
    const url = `http://hooks.invalid:${port}/hook`

    const fromPublic = await send(pinned(url, false))
    expect(fromPublic).toMatchObject({ statusCode: 500, ok: false, responseBytes: reply.length })
    expect(fromPublic.responseExcerpt).toBe(reply.slice(0, 500))

    const fromPrivate = await send(pinned(url, true))
    expect(fromPrivate).toMatchObject({ statusCode: 500, ok: false, responseBytes: reply.length })
    expect(fromPrivate.responseExcerpt).toBeUndefined()

    expect(seen.map((headers) => headers.host)).toEqual([`hooks.invalid:${port}`, `hooks.invalid:${port}`])
  })

  it('names the URL host as TLS server name (SNI) when connecting to the pinned address', async () => {
    const names: string[] = []
    // Records the server name of the hello, then ends the handshake: no certificate is needed for that.
    const server = createTlsServer({
      SNICallback: (name, callback) => {
        names.push(name)
        callback(new Error('recorded'))
      },
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    closers.push(() => new Promise((resolve) => server.close(() => resolve())))
    const { port } = server.address() as AddressInfo

    const attempt = await send(pinned(`https://hooks.invalid:${port}/hook`, false))
    expect(attempt).toMatchObject({ ok: false, statusCode: null, error: 'network_error' })
    expect(names).toEqual(['hooks.invalid'])
  })
})
