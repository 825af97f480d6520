import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { AgentWalletHttpError, createClient } from '@agentwallet/client'
import { BaseError, ConflictError } from '@agentwallet/core/contract'
import { afterEach, describe, expect, it } from 'vitest'

/*
 * What the client does when the answer is not the AgentWallet server's: real HTTP servers on
 * 127.0.0.1 play a proxy's error page, a server that never answers, and one that answers a shape
 * its operation does not declare.
 */

const servers: Server[] = []
const wallet = '0x000000000000000000000000000000000000dEaD'

async function serve(listener: RequestListener): Promise<string> {
  const server = createServer(listener)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

function answer(status: number, body: string, type = 'application/json'): RequestListener {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': type, 'x-request-id': 'req_test' })
    response.end(body)
  }
}

async function failure(call: Promise<unknown>): Promise<AgentWalletHttpError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(AgentWalletHttpError)
  return error as AgentWalletHttpError
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

describe('client failures that are not an AgentWallet answer', () => {
  it('throws http_error, with the status and request id, for an error body that is not the envelope', async () => {
    const baseUrl = await serve(answer(502, '<html>Bad gateway</html>', 'text/html'))
    const error = await failure(createClient({ baseUrl, apiKey: 'k' }).getBalance({ wallet }))
    expect(error).toMatchObject({ code: 'http_error', status: 502, requestId: 'req_test' })
    expect(error).toBeInstanceOf(BaseError)
  })

  it('throws http_error for a success that is not the envelope', async () => {
    const baseUrl = await serve(answer(200, '{"balance":"1"}'))
    const error = await failure(createClient({ baseUrl, apiKey: 'k' }).getBalance({ wallet }))
    expect(error).toMatchObject({ code: 'http_error', status: 200 })
  })

  it('throws the envelope’s code for a 2xx that says success: false', async () => {
    const baseUrl = await serve(answer(200, '{"success":false,"error":{"code":"conflict","message":"no"}}'))
    const error = await failure(createClient({ baseUrl, apiKey: 'k' }).getBalance({ wallet }))
    expect(error).toMatchObject({ code: 'conflict', status: 200, message: 'no' })
    expect(error).toBeInstanceOf(ConflictError)
  })

  it('throws timeout (status 0) when the server does not answer in time', async () => {
    const baseUrl = await serve(() => {})
    const client = createClient({ baseUrl, apiKey: 'k', timeoutMs: 200 })
    expect(await failure(client.getBalance({ wallet }))).toMatchObject({ code: 'timeout', status: 0 })
  })

  it('throws network_error (status 0) when nothing listens', async () => {
    const baseUrl = await serve(answer(200, '{}'))
    const closed = servers.pop()!
    await new Promise((resolve) => closed.close(resolve))
    const error = await failure(createClient({ baseUrl, apiKey: 'k' }).getBalance({ wallet }))
    expect(error).toMatchObject({ code: 'network_error', status: 0 })
  })

  it('sends nothing and throws validation_failed (status 0) for a missing path parameter', async () => {
    let requests = 0
    const baseUrl = await serve((request, response) => {
      requests += 1
      answer(200, '{"success":true}')(request, response)
    })
    const error = await failure(createClient({ baseUrl, apiKey: 'k' }).getBalance({ wallet: '' }))
    expect(error).toMatchObject({
      code: 'validation_failed',
      status: 0,
      details: { issues: [{ path: 'wallet' }] },
    })
    expect(requests).toBe(0)
  })

  it('with validate: true, throws invalid_response for an answer outside the declared output', async () => {
    const baseUrl = await serve(answer(200, '{"success":true,"eth":5}'))
    const loose = await createClient({ baseUrl, apiKey: 'k' }).getBalance({ wallet })
    expect(loose).toEqual({ eth: 5 })
    const error = await failure(createClient({ baseUrl, apiKey: 'k', validate: true }).getBalance({ wallet }))
    expect(error).toMatchObject({
      code: 'invalid_response',
      status: 200,
      details: { operation: 'getBalance' },
    })
  })

  it('refuses a base URL that is not one, at once', () => {
    expect(() => createClient({ baseUrl: 'not a url', apiKey: 'k' })).toThrow(TypeError)
  })
})
