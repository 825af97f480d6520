import type { Address } from 'viem'
import type { z } from 'zod'
import type { walletSchema } from './walletSchemas.js'

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
  createdAt: string
}

/** The wallet as the API shows it. */
export type Wallet = z.infer<typeof walletSchema>

export function toWallet({ id, address, chain, agentName, createdAt }: WalletRecord): Wallet {
  return { id, address, chain, agentName, createdAt }
}
