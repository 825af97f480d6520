import {
  type AgentWalletBackend,
  inProcessBackend,
  readMcpEnv,
  remoteBackend,
  runMcpServer,
  toToolError,
} from '@agentwallet/mcp'
import { CliError } from './cliError.js'
import type { Env, ServerConfig } from './loadConfig.js'
import { openAgentWallet, type Runtime } from './openAgentWallet.js'

export type RunningMcp = { closed: Promise<void>; close(): Promise<void> }

const keyHint = 'create one with `agentwallet keys create --name <name> --role agent`'

/**
 * `agentwallet mcp`: the agent tools as an MCP server (stdio by default, or streamable HTTP), against
 * a running server (AGENTWALLET_URL + AGENTWALLET_API_KEY) or in-process over the data dir/RPC
 * settings `serve` uses. Writes nothing to stdout: under stdio it carries the protocol.
 * @example const running = await mcpCommand(config, process.env)
 */
export async function mcpCommand(config: ServerConfig, env: Env): Promise<RunningMcp> {
  const settings = readMcpEnv(env)
  if (!settings.apiKey)
    throw new CliError(`agentwallet mcp needs AGENTWALLET_API_KEY, an agent key: ${keyHint}`)
  const approvals = { serverUrl: settings.approvalServerUrl, dashboardUrl: settings.dashboardUrl }
  let runtime: Runtime | undefined
  try {
    let backend: AgentWalletBackend
    if (settings.url) {
      backend = remoteBackend({ url: settings.url, apiKey: settings.apiKey, approvals })
      await checkKey(backend)
    } else {
      runtime = await openAgentWallet(config, env, 'mcp')
      const principal = await runtime.agentWallet.authenticate(settings.apiKey)
      backend = inProcessBackend({ session: runtime.agentWallet.as(principal), approvals })
    }
    const running = await runMcpServer({
      backend,
      transport: settings.transport,
      port: settings.port,
      host: settings.host,
      token: settings.token,
    })
    const opened = runtime
    return {
      closed: running.closed,
      async close() {
        await running.close()
        await opened?.close()
      },
    }
  } catch (error) {
    await runtime?.close()
    const { code } = toToolError(error)
    if (code === 'unauthorized') throw new CliError(`AGENTWALLET_API_KEY is not a valid key here: ${keyHint}`)
    if (code === 'forbidden') throw new CliError(`AGENTWALLET_API_KEY must be an agent key: ${keyHint}`)
    throw error
  }
}

/** A wrong key (or not an agent's) fails at start, not at the agent's first tool call; an unreachable server may come up later. */
async function checkKey(backend: AgentWalletBackend): Promise<void> {
  await backend.ready().catch((error: unknown) => {
    if (toToolError(error).code === 'server_unavailable') {
      process.stderr.write(
        'agentwallet mcp: the AgentWallet server does not answer yet; tools will retry per call\n',
      )
      return
    }
    throw error
  })
}
