import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { parseJsonWithBigInts, stringifyJsonWithBigInts } from '@solana/rpc-spec-types'
import { WebSocketServer } from 'ws'
import { attachSubscriptions } from './attachSubscriptions.js'
import type { createRpcHandler, JsonRpcRequest } from './createRpcHandler.js'
import type { SolanaChain } from './createSolanaChain.js'

export type SolanaServeOptions = {
  /** Default 8899, Solana's RPC port; 0 picks a free port. */
  port?: number | undefined
  /** Default 127.0.0.1: the devnet's faucet is open to anyone who reaches it. */
  host?: string | undefined
}

/** A served devnet: JSON-RPC over HTTP at `url`, PubSub over WebSocket at `wsUrl` (the same port). */
export type SolanaDevnetServer = { url: string; wsUrl: string; close(): Promise<void> }

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * Serves the handler as JSON-RPC over HTTP (single and batch requests; `GET /health` as Agave) and the
 * subscriptions over WebSocket on the same port, so `createSolanaRpc(url)` and
 * `createSolanaRpcSubscriptions(wsUrl)` work unchanged.
 */
export async function serveSolanaDevnet(
  handle: ReturnType<typeof createRpcHandler>,
  chain: SolanaChain,
  options: SolanaServeOptions = {},
): Promise<SolanaDevnetServer> {
  const host = options.host ?? '127.0.0.1'
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const send = (status: number, body: unknown, type = 'application/json') => {
      response.writeHead(status, { 'content-type': type })
      response.end(
        typeof body === 'string' && type !== 'application/json' ? body : stringifyJsonWithBigInts(body),
      )
    }
    if (request.method === 'GET' && request.url === '/health') return send(200, 'ok', 'text/plain')
    if (request.method !== 'POST')
      return send(405, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'POST only' } })
    let body: unknown
    try {
      body = parseJsonWithBigInts(await readBody(request))
    } catch {
      return send(200, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } })
    }
    if (!Array.isArray(body)) return send(200, await handle(body as JsonRpcRequest))
    const results = []
    for (const call of body) results.push(await handle(call as JsonRpcRequest))
    return send(200, results)
  })
  const sockets = new WebSocketServer({ server })
  sockets.on('connection', (socket) => attachSubscriptions(socket, chain))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 8899, host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`
  return {
    url: `http://${authority}`,
    wsUrl: `ws://${authority}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const socket of sockets.clients) socket.terminate()
        sockets.close()
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}
