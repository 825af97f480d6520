import type { AgentWallet, Principal } from '@agentwallet/core'
import type { WebSocket } from 'ws'

export type WsAuthOptions = { agentWallet: AgentWallet; authTimeoutMs: number }

/**
 * Authenticates a WebSocket: the `X-API-Key` header of the upgrade, `?apiKey=`, or else a first
 * message `{ "type": "auth", "apiKey": "…" }` within the deadline. Resolves undefined on failure
 * (the caller closes with 4401).
 * @example const principal = await authenticateSocket(socket, headerKey ?? queryKey, options)
 */
export async function authenticateSocket(
  socket: WebSocket,
  offeredKey: string | undefined,
  options: WsAuthOptions,
): Promise<Principal | undefined> {
  const key = offeredKey ?? (await firstAuthMessage(socket, options.authTimeoutMs))
  if (key === undefined) return undefined
  return options.agentWallet.authenticate(key).catch(() => undefined)
}

function firstAuthMessage(socket: WebSocket, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const done = (key: string | undefined) => {
      clearTimeout(timer)
      socket.off('message', onMessage)
      socket.off('close', onClose)
      resolve(key)
    }
    const onMessage = (raw: Buffer) => {
      try {
        const message = JSON.parse(raw.toString('utf8')) as { type?: unknown; apiKey?: unknown }
        done(message.type === 'auth' && typeof message.apiKey === 'string' ? message.apiKey : undefined)
      } catch {
        done(undefined)
      }
    }
    const onClose = () => done(undefined)
    const timer = setTimeout(() => done(undefined), timeoutMs)
    socket.on('message', onMessage)
    socket.on('close', onClose)
  })
}
