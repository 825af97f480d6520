import type { Address } from 'viem'
import { hashAuthorization } from 'viem/utils'
import { recordAudit } from '../audit/recordAudit.js'
import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { accountAbstractionOf } from '../smartAccounts/accountAbstractionOf.js'
import { signUpgradeAuthorization } from '../smartAccounts/signUpgradeAuthorization.js'
import { walletLockKey, withLock } from '../storage/withLock.js'
import type { StoredAuthorization } from '../transactions/types.js'
import { relayCall } from './relayCall.js'
import { relayerAccount } from './relayerAccount.js'

/**
 * Delegates the EOAs of `keys` (vault keys: a session key, an EOA wallet being upgraded) to the chain's
 * EIP7702StatelessDeleGator in one type-4 transaction the tenant's relayer sends and pays for, through
 * the send machinery (exactly once; tracked like any of its txs). Each key signs its authorization at
 * its current account nonce; each signature is in the audit trail (its digest, r, s, yParity; under
 * `walletId` when one wallet's keys are delegated) before the transaction carries it. Awaits the
 * broadcast; the chain shows the code once it is mined.
 * @example await delegateByRelayer(ctx, chain, tenantId, [sessionKey])
 */
export async function delegateByRelayer(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  tenantId: string,
  keys: readonly Address[],
  { walletId }: { walletId?: string | undefined } = {},
): Promise<void> {
  const contracts = accountAbstractionOf(chain)
  const authorizationList: StoredAuthorization[] = []
  for (const key of keys) {
    const nonce = await chain.client.getTransactionCount({ address: key }).catch((error: unknown) => {
      throw toChainError(error, chain.name, { read: true })
    })
    const signed = await signUpgradeAuthorization(await ctx.vault.getSigner(key), {
      chainId: chain.chainId,
      contracts,
      nonce,
    })
    const signature = { r: signed.r, s: signed.s, yParity: signed.yParity ?? (signed.v === 28n ? 1 : 0) }
    await recordAudit(ctx, tenantId, {
      kind: 'vault.signature',
      subjects: { keyId: key, ...(walletId ? { walletId } : {}) },
      payload: {
        signed: 'authorization_7702',
        delegateTo: signed.address,
        chainId: signed.chainId,
        nonce,
        digest: hashAuthorization({ chainId: signed.chainId, contractAddress: signed.address, nonce }),
        signature,
      },
    })
    authorizationList.push({
      address: signed.address,
      chainId: signed.chainId,
      nonce: signed.nonce,
      ...signature,
    })
  }
  const relayer = await relayerAccount(ctx, tenantId)
  const [first] = keys
  if (!first) return
  const { sending } = await withLock(ctx.storage, [walletLockKey(relayer.address)], () =>
    relayCall(
      ctx,
      chain,
      relayer,
      { to: first, value: '0', data: '0x', authorizationList },
      {
        meta: { delegates: keys, to: contracts.eip7702DeleGator },
      },
    ),
  )
  await sending
}
