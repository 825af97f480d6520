import { type AgentWalletClient, createClient } from '@agentwallet/client'

/** The typed client of the AgentWallet API: one method per operation of the contract. */
export type Api = AgentWalletClient

/**
 * Same-origin calls through `@agentwallet/client`, with the key in the `X-API-Key` header (never in
 * the URL); no cookies sent, nothing cached. A failure throws `AgentWalletHttpError` (classify by `code`).
 * @example const { wallets } = await createApi(key).listWallets({ limit: 1000 })
 */
export function createApi(key: string): Api {
  return createClient({
    baseUrl: location.origin,
    apiKey: key,
    fetch: (input, init) => fetch(input, { ...init, credentials: 'omit', cache: 'no-store' }),
  })
}
