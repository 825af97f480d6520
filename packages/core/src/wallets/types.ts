import type { Address } from 'viem'
import type { z } from 'zod'
import type { walletSchema } from './walletSchemas.js'

/** What kind of account a wallet is (see `WalletRecord.kind`). */
export type WalletKind = 'eoa' | 'smart' | 'relayer'

export type WalletRecord = {
  id: string
  tenantId: string
  /** The principal that created or imported it; agents see only their own wallets. */
  ownerId: string
  address: Address
  /** The chain a request uses when it names none. */
  chain: string
  agentName: string
  source: 'created' | 'imported'
  /**
   * `eoa` (absent on records made before kinds): the vault key is the account. `smart`: a smart
   * account the vault's owner key controls, acted for through a session key. `relayer`: the tenant's
   * account that submits user operations (`relayerAccount`).
   */
  kind?: WalletKind | undefined
  createdAt: string
}

/** The wallet as the API shows it. */
export type Wallet = z.infer<typeof walletSchema>

export function toWallet({ id, address, chain, agentName, kind, createdAt }: WalletRecord): Wallet {
  return { id, address, chain, agentName, kind: kind ?? 'eoa', createdAt }
}
