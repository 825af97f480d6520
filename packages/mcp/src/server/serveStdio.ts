import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'

/**
 * Serves `server` over this process's stdin/stdout (stdout carries only the protocol).
 * @example const running = await serveStdio(createMcpServer(agentWalletTools(backend)))
 */
export async function serveStdio(server: Server): Promise<{ closed: Promise<void>; close(): Promise<void> }> {
  const transport = new StdioServerTransport()
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve()
  })
  await server.connect(transport)
  // The client closing stdin is the end of the session.
  process.stdin.once('end', () => void server.close())
  return { closed, close: () => server.close() }
}
