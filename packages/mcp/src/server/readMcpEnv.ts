import { BaseError } from '@agentwallet/core/contract'

/** The MCP server's settings, all from the environment (flags belong to the host CLI). */
export type McpEnv = {
  /** AGENTWALLET_URL: a running server → the remote backend; unset → in-process. */
  url: string | undefined
  /** AGENTWALLET_API_KEY: an agent key (of that server, or of the in-process data dir). */
  apiKey: string | undefined
  /** AGENTWALLET_MCP_TRANSPORT: `stdio` (default) or `http`. */
  transport: 'stdio' | 'http'
  /** AGENTWALLET_MCP_PORT (default 3333) and AGENTWALLET_MCP_HOST (default 127.0.0.1), for http. */
  port: number
  host: string
  /** AGENTWALLET_MCP_TOKEN: bearer token the http transport requires. */
  token: string | undefined
  /** AGENTWALLET_APPROVAL_URL: the server URL humans approve at (default AGENTWALLET_URL). */
  approvalServerUrl: string | undefined
  /** AGENTWALLET_DASHBOARD_URL: a dashboard page per approval, `{id}` replaced. */
  dashboardUrl: string | undefined
}

/**
 * Reads the `agentwallet mcp` settings from `env`; a bad value is `validation_failed`.
 * @example const settings = readMcpEnv(process.env)
 */
export function readMcpEnv(env: Record<string, string | undefined>): McpEnv {
  const transport = env.AGENTWALLET_MCP_TRANSPORT ?? 'stdio'
  if (transport !== 'stdio' && transport !== 'http') {
    throw new BaseError(
      'validation_failed',
      `AGENTWALLET_MCP_TRANSPORT must be stdio or http, not "${transport}"`,
    )
  }
  const port = Number(env.AGENTWALLET_MCP_PORT ?? 3333)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new BaseError(
      'validation_failed',
      `AGENTWALLET_MCP_PORT must be a port (0-65535), not "${env.AGENTWALLET_MCP_PORT}"`,
    )
  }
  const url = env.AGENTWALLET_URL || undefined
  return {
    url,
    apiKey: env.AGENTWALLET_API_KEY || undefined,
    transport,
    port,
    host: env.AGENTWALLET_MCP_HOST || '127.0.0.1',
    token: env.AGENTWALLET_MCP_TOKEN || undefined,
    approvalServerUrl: env.AGENTWALLET_APPROVAL_URL || url,
    dashboardUrl: env.AGENTWALLET_DASHBOARD_URL || undefined,
  }
}
