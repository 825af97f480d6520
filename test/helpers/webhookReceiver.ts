import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export type Received = {
  headers: IncomingHttpHeaders
  body: string
  json: { id: string; type: string; seq: number; data: Record<string, unknown> }
}

/**
 * A webhook receiver on 127.0.0.1 (or `listenOn`) that answers with `respond()` (default 200) and
 * keeps what it got.
 */
export async function startReceiver(
  respond: (received: Received) => number = () => 200,
  listenOn: { host?: string; port?: number } = {},
) {
  const { host = '127.0.0.1', port: wanted = 0 } = listenOn
  const received: Received[] = []
  let connections = 0
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      const entry = { headers: request.headers, body, json: JSON.parse(body) }
      const status = respond(entry)
      if (status >= 200 && status < 300) received.push(entry)
      response.writeHead(status).end(status >= 400 ? 'receiver says no' : 'ok')
    })
  })
  server.on('connection', () => connections++)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(wanted, host, resolve)
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host}:${port}/hook`,
    port,
    received,
    /** TCP connections accepted so far. */
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
