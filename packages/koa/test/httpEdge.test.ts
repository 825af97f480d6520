import { connect } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer, testAdminKey } from './helpers/testServer.js'

let t: TestServer

beforeAll(async () => {
  t = await startTestServer()
})
afterAll(async () => t?.close())

/** Writes raw bytes on a fresh connection (half-closing it when `end`) and reads until the server closes. */
function rawRequest(bytes: string, { end = false } = {}): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(t.url).port), '127.0.0.1')
    let received = ''
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`the server did not answer and close within 5 s; got ${JSON.stringify(received)}`))
    }, 5_000)
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      received += chunk
    })
    socket.on('error', reject)
    socket.on('close', () => {
      clearTimeout(timer)
      const [head = '', body = ''] = received.split('\r\n\r\n')
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1])
      try {
        resolve({ status, body: JSON.parse(body) })
      } catch {
        reject(new Error(`not an enveloped answer: ${JSON.stringify(received)}`))
      }
    })
    socket.write(bytes)
    if (end) socket.end()
  })
}

const head = (extra: string) =>
  'POST /wallet/create HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
  `x-api-key: ${testAdminKey}\r\ncontent-type: application/json\r\n${extra}\r\n`

describe('OPTIONS and methods', () => {
  it('answers OPTIONS on a route with 204 and the path’s methods in Allow, and no CORS headers', async () => {
    // /policy/update is POST only (/wallet/create also matches GET /wallet/:wallet).
    const response = await fetch(`${t.url}/policy/update`, {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'POST' },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('allow')).toBe('POST')
    expect(await response.text()).toBe('')
    expect([...response.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([])
    const health = await fetch(`${t.url}/health`, { method: 'OPTIONS' })
    expect(health.status).toBe(204)
    expect(health.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'HEAD'])
  })

  it('keeps a 404 envelope for OPTIONS on an unknown path, and a 405 envelope with Allow for a wrong method', async () => {
    const unknown = await t.call('OPTIONS', '/no/such/path')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toMatchObject({ success: false, error: { code: 'not_found' } })
    const wrong = await t.call('PATCH', '/policy/update', { body: {} })
    expect(wrong.status).toBe(405)
    expect(wrong.body).toMatchObject({ success: false, error: { code: 'method_not_allowed' } })
    expect(wrong.headers.get('allow')).toBe('POST')
  })
})

describe('requests Node cannot parse', () => {
  it.each([
    [
      'a body shorter than its Content-Length, then the client closes',
      head('content-length: 100\r\n') + '{"agentName":"a"}',
      true,
    ],
    ['a body longer than its Content-Length', head('content-length: 5\r\n') + '{"agentName":"a"}', false],
    ['a Content-Length that is not a number', head('content-length: ten\r\n') + '{}', false],
    ['two different Content-Lengths', head('content-length: 2\r\ncontent-length: 3\r\n') + '{}', false],
    [
      'Content-Length beside chunked Transfer-Encoding',
      head('content-length: 2\r\ntransfer-encoding: chunked\r\n') + '2\r\n{}\r\n0\r\n\r\n',
      false,
    ],
  ])('%s → 400 envelope', async (_name, bytes, end) => {
    const answer = await rawRequest(bytes, { end })
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ success: false, error: { code: 'validation_failed' } })
  })

  it('answers headers too large with 431 in the envelope', async () => {
    const answer = await rawRequest(head(`x-padding: ${'a'.repeat(20_000)}\r\ncontent-length: 2\r\n`) + '{}')
    expect(answer.status).toBe(431)
    expect(answer.body).toMatchObject({ success: false, error: { code: 'header_too_large' } })
  })

  it('logs a client that left mid-body as its 400, not as a failed request', async () => {
    await rawRequest(head('x-request-id: cut-short\r\ncontent-length: 100\r\n') + '{"agentName"', {
      end: true,
    })
    const lines = () => t.logs.filter((line) => line.includes('"requestId":"cut-short"'))
    // The access line is written when the request's handling ends: wait for it, then judge every line.
    await expect
      .poll(() => lines().some((line) => line.includes('"msg":"request"')), { timeout: 5_000 })
      .toBe(true)
    expect(lines().map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ level: 30, status: 400, errorCode: 'validation_failed' }),
    ])
  })
})

describe('content codings', () => {
  const gzipped = gzipSync(JSON.stringify({ agentName: 'zipped' }))

  it.each(['gzip', 'deflate', 'br', 'x-unknown'])('refuses a %s-encoded body with 415', async (coding) => {
    const response = await fetch(`${t.url}/wallet/create`, {
      method: 'POST',
      headers: { 'x-api-key': t.adminKey, 'content-type': 'application/json', 'content-encoding': coding },
      body: coding === 'gzip' ? gzipped : 'not really encoded',
    })
    expect(response.status).toBe(415)
    expect(await response.json()).toMatchObject({ success: false, error: { code: 'unsupported_media_type' } })
    expect(response.headers.get('accept-encoding')).toBe('identity')
  })

  it('takes Content-Encoding: identity as no coding', async () => {
    const created = await t.call('POST', '/wallet/create', {
      body: { agentName: 'plain' },
      headers: { 'content-encoding': 'identity' },
    })
    expect(created.status).toBe(201)
  })
})
