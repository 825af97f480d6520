import type { Address, Hex } from 'viem'
import type { z } from 'zod'
import { sessionGrantsOf } from './sessionGrantsOf.js'
import type { walletSchema } from './walletSchemas.js'

/** What kind of account a wallet is (see `WalletRecord.kind`). */
export type WalletKind = 'eoa' | 'smart' | 'relayer'

/**
 * What a smart wallet keeps: the vault keys behind it (addresses; the agent holds neither) and the
 * session key's current grant. JSON-safe: numbers are decimal strings (`smartWallets/storedSession.ts`).
 */
export type SmartWalletFields = {
  /** The key that owns the wallet: a HybridDeleGator's owner, or an upgraded EOA's own key. */
  owner: Address
  /** `hybrid`: a HybridDeleGator from the factory, deployed by its first operation; `eip7702`: an EOA upgraded in place. */
  account: 'hybrid' | 'eip7702'
  /** The key the agent acts through; its EOA, delegated to EIP7702StatelessDeleGator, sends the user operations. */
  sessionKey: Address
  session: StoredSession
}

/** A session key's grant: delegations signed by the owner, what they permit, and until when. */
export type StoredSession = {
  /** The signed delegations (`SessionDelegations`, numbers as decimal strings). */
  delegations: unknown
  /** Their EIP-712 hashes: their ids on chain (revocation, the enforcers' spent amounts). */
  delegationHashes: Hex[]
  /** The on-chain permissions (`SessionPermissions`, numbers as decimal strings). */
  permissions: unknown
  /** Rules the chain cannot express, judged off chain only. */
  offChainOnly: { ruleId?: string | undefined; type: string; reason: string }[]
  issuedAt: string
  expiresAt: string
  /** The native bounds are the default rules': the wallet's rules set none the chain can hold. */
  nativeFromDefaults?: boolean | undefined
  /**
   * Earlier grants this one replaced, kept until their expiry: each revoked on chain by the owner once
   * the wallet has code (`revokeSupersededGrants`), `revokedAt` set when the chain shows it disabled.
   */
  superseded?: SupersededGrant[] | undefined
  /** The owner's last revocation op for them (or its error code): the next waits `rebroadcastAfterMs`. */
  revocation?: { at: string; error?: string | undefined } | undefined
  /**
   * Records made before `superseded`: hashes of earlier grants not revoked when this one replaced them.
   * Their delegations were not kept, so the service cannot revoke them: they lapse at their expiry.
   */
  unrevoked?: Hex[] | undefined
}

/** A grant the wallet no longer uses: its signed delegations, kept so the owner can revoke them. */
export type SupersededGrant = {
  /** The signed delegations (`SessionDelegations`, numbers as decimal strings). */
  delegations: unknown
  delegationHashes: Hex[]
  issuedAt: string
  expiresAt: string
  /** When the chain was first seen to hold every one of them disabled. */
  revokedAt?: string | undefined
}

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
  /** A smart wallet's keys and its session key's grant (kind `smart`). */
  smart?: SmartWalletFields | undefined
  /**
   * True while a superseded grant of the smart wallet awaits its revocation on chain: the tracker's
   * pass (`trackGrantRevocations`) finds the wallets to revoke for by it.
   */
  grantsToRevoke?: boolean | undefined
  createdAt: string
}

/** The wallet as the API shows it. */
export type Wallet = z.infer<typeof walletSchema>

export function toWallet({ id, address, chain, agentName, kind, smart, createdAt }: WalletRecord): Wallet {
  return {
    id,
    address,
    chain,
    agentName,
    kind: kind ?? 'eoa',
    ...(smart ? { smart: smartView(smart) } : {}),
    createdAt,
  }
}

function smartView({ account, owner, sessionKey, session }: SmartWalletFields): NonNullable<Wallet['smart']> {
  const { expiresAt: _, ...permissions } = session.permissions as Record<string, unknown>
  return {
    account,
    owner,
    sessionKey,
    expiresAt: session.expiresAt,
    permissions: permissions as NonNullable<Wallet['smart']>['permissions'],
    offChainOnly: session.offChainOnly,
    ...(session.nativeFromDefaults ? { nativeFromDefaults: true } : {}),
    delegationHashes: session.delegationHashes,
    grants: sessionGrantsOf(session),
  }
}
