import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { DevnetProvider } from './types.js'

export type ServeOptions = {
  /** Default 8545; 0 picks a free port. */
  port?: number | undefined
  /** Default 127.0.0.1: the devnet's keys are public, so it is not exposed beyond this machine. */
  host?: string | undefined
}

export type DevnetServer = { url: string; close(): Promise<void> }

type JsonRpcRequest = { jsonrpc?: string; id?: unknown; method?: unknown; params?: unknown }

async function answer(provider: DevnetProvider, call: JsonRpcRequest) {
  const id = call.id ?? null
  if (typeof call.method !== 'string')
    return { jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid request' } }
  try {
    const params = Array.isArray(call.params) ? call.params : []
    return { jsonrpc: '2.0', id, result: (await provider.request({ method: call.method, params })) ?? null }
  } catch (error) {
    const {
      code = -32603,
      message = 'Internal error',
      data,
    } = error as { code?: number; message?: string; data?: unknown }
    return { jsonrpc: '2.0', id, error: { code, message, data } }
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** Serves `provider` as JSON-RPC over HTTP (single and batch requests). */
export async function serveDevnet(
  provider: DevnetProvider,
  options: ServeOptions = {},
): Promise<DevnetServer> {
  const host = options.host ?? '127.0.0.1'
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(JSON.stringify(body))
    }
    if (request.method !== 'POST')
      return send(405, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'POST only' } })
    let body: unknown
    try {
      body = JSON.parse(await readBody(request))
    } catch {
      return send(200, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } })
    }
    if (Array.isArray(body)) {
      // Batch entries run in order: a batch of dependent sends must apply as written.
      const results = []
      for (const call of body) results.push(await answer(provider, call as JsonRpcRequest))
      return send(200, results)
    }
    return send(200, await answer(provider, body as JsonRpcRequest))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 8545, host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}
