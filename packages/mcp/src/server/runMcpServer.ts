import type { AgentWalletBackend } from '../backend/agentWalletBackend.js'
import { agentTools } from '../tools/agentTools.js'
import { createMcpServer } from './createMcpServer.js'
import { serveStdio } from './serveStdio.js'
import { serveStreamableHttp } from './serveStreamableHttp.js'

export type RunMcpServerOptions = {
  backend: AgentWalletBackend
  transport: 'stdio' | 'http'
  port?: number | undefined
  host?: string | undefined
  token?: string | undefined
  /** Where diagnostics go; default stderr (stdout is the protocol under stdio). */
  log?: ((line: string) => void) | undefined
}

export type RunningMcpServer = {
  /** The streamable HTTP endpoint (http transport only). */
  url: string | undefined
  /** Resolves when a stdio client hangs up. */
  closed: Promise<void>
  close(): Promise<void>
}

/**
 * Serves the agent tools of `backend` over stdio or streamable HTTP until closed.
 * @example const running = await runMcpServer({ backend: remoteBackend({ url, apiKey }), transport: 'stdio' })
 */
export async function runMcpServer(options: RunMcpServerOptions): Promise<RunningMcpServer> {
  const log = options.log ?? ((line: string) => process.stderr.write(`agentwallet mcp: ${line}\n`))
  const tools = agentTools(options.backend)
  if (options.transport === 'stdio') {
    const running = await serveStdio(createMcpServer(tools, { log }))
    log(`serving ${tools.length} tools over stdio (${options.backend.kind} backend)`)
    return { url: undefined, ...running }
  }
  const running = await serveStreamableHttp({
    createServer: () => createMcpServer(tools, { log }),
    port: options.port ?? 3333,
    host: options.host,
    token: options.token,
    log,
  })
  log(`serving ${tools.length} tools at ${running.url} (${options.backend.kind} backend)`)
  // An HTTP endpoint has no hang-up of its own: it runs until closed.
  let markClosed = () => {}
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve
  })
  return {
    url: running.url,
    closed,
    async close() {
      await running.close()
      markClosed()
    },
  }
}
