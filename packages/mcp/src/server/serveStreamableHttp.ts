import { timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'

export type ServeStreamableHttpOptions = {
  /** A fresh MCP server per request: the endpoint is stateless, so any replica can answer. */
  createServer(): Server
  port: number
  /** Default 127.0.0.1: whoever reaches the port acts as the agent. */
  host?: string | undefined
  /** When set, requests must send `Authorization: Bearer <token>`. */
  token?: string | undefined
  /** Default `/mcp`. */
  path?: string | undefined
  log?: ((line: string) => void) | undefined
}

export type RunningMcpHttp = { url: string; close(): Promise<void> }

/**
 * Serves MCP over streamable HTTP (stateless, JSON responses) at `http://host:port/mcp`.
 * @example const { url } = await serveStreamableHttp({ createServer: () => createMcpServer(tools), port: 3333 })
 */
export async function serveStreamableHttp(options: ServeStreamableHttpOptions): Promise<RunningMcpHttp> {
  const host = options.host ?? '127.0.0.1'
  const path = options.path ?? '/mcp'
  let allowedHosts: string[] = []
  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      options.log?.(`mcp http error: ${(error as Error)?.name ?? 'unknown'}`)
      if (!response.headersSent) reply(response, 500, -32603, 'Internal error')
      else response.end()
    })
  })
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== path)
      return reply(response, 404, -32601, 'Not found')
    if (options.token !== undefined && !bearerMatches(request.headers.authorization, options.token)) {
      return reply(response, 401, -32001, 'Unauthorized')
    }
    // Stateless mode has no session stream to GET and no session to DELETE.
    if (request.method !== 'POST') return reply(response, 405, -32000, 'Method not allowed')
    const server = options.createServer()
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      // A web page in the user's browser must not reach a loopback MCP server through DNS rebinding.
      enableDnsRebindingProtection: isLoopback(host),
      allowedHosts,
    })
    response.on('close', () => {
      void transport.close()
      void server.close()
    })
    await server.connect(transport)
    await transport.handleRequest(request, response)
  }
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject)
    http.listen(options.port, host, () => resolve())
  })
  const { port } = http.address() as AddressInfo
  const shownHost = host.includes(':') ? `[${host}]` : host
  allowedHosts = [`${shownHost}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`]
  return {
    url: `http://${shownHost}:${port}${path}`,
    async close() {
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
    },
  }
}

function reply(response: ServerResponse, status: number, code: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }))
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '')
  const expected = Buffer.from(token)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1'
}
