import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { accountAbstractionOf } from '../smartAccounts/accountAbstractionOf.js'
import { smartWalletDeployment } from '../smartAccounts/smartWalletDeployment.js'
import { walletLockKey, withLock } from '../storage/withLock.js'
import { waitForFinalStatus } from '../transactions/waitForTransaction.js'
import type { WalletRecord } from '../wallets/types.js'
import { relayCall } from './relayCall.js'
import { relayerAccount } from './relayerAccount.js'

/**
 * Makes sure a smart wallet's contract is on chain, so that a verifier can ask it for an EIP-1271
 * signature (`signAsWallet`): a HybridDeleGator wallet with no code yet is deployed from the factory
 * by a plain transaction of the tenant's relayer (the factory's `deploy` is open to anyone; the
 * address depends only on the owner), through the send machinery, awaited to its receipt. An EOA
 * wallet, an EIP-7702 wallet, or a wallet already deployed: nothing is sent.
 * @example await deployByRelayer(ctx, chain, wallet)
 */
export async function deployByRelayer(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  wallet: WalletRecord,
): Promise<void> {
  if (wallet.smart?.account !== 'hybrid' || (await hasCode(chain, wallet))) return
  const deployment = await smartWalletDeployment(accountAbstractionOf(chain), { owner: wallet.smart.owner })
  const relayer = await relayerAccount(ctx, wallet.tenantId)
  const { record, sending } = await withLock(ctx.storage, [walletLockKey(relayer.address)], () =>
    relayCall(
      ctx,
      chain,
      relayer,
      { to: deployment.factory, value: '0', data: deployment.factoryData },
      { meta: { deploys: wallet.address } },
    ),
  )
  await sending
  const done = await waitForFinalStatus(ctx, record.id, { timeoutMs: 120_000 })
  if (done.status !== 'confirmed' || !(await hasCode(chain, wallet))) {
    throw new BaseError('transaction_failed', 'The smart wallet could not be deployed', {
      details: { wallet: wallet.address, transactionId: record.id, status: done.status },
    })
  }
}

async function hasCode(chain: ChainHandle, wallet: WalletRecord): Promise<boolean> {
  const code = await chain.client.getCode({ address: wallet.address }).catch((error: unknown) => {
    throw toChainError(error, chain.name, { read: true })
  })
  return (code ?? '0x') !== '0x'
}
