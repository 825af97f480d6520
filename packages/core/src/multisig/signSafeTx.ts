import type { Address, Hex } from 'viem'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import type { WalletRecord } from '../wallets/types.js'
import { approveSafeHash } from './approveSafeHash.js'
import { type StoredSafeTx, safeTxHash, safeTxTypedData } from './safeTransaction.js'

/**
 * A managed owner's signature of `tx` on the Safe `safe`: an EOA wallet's vault key signs the SafeTx
 * (EIP-712, a vault signature the caller records with `auditSafeSignature`); a smart wallet approves
 * its safeTxHash on chain by a user operation and gives Safe's approved-hash signature (`approveSafeHash`:
 * why not an EIP-1271 one), its session key's signature recorded as for every op.
 * @example const signature = await signSafeTx(ctx, principal, chain, safe, tx, wallet)
 */
export async function signSafeTx(
  ctx: AgentWalletContext,
  principal: Principal,
  chain: ChainHandle,
  safe: Address,
  tx: StoredSafeTx,
  wallet: WalletRecord,
): Promise<Hex> {
  if (wallet.kind === 'smart')
    return approveSafeHash(ctx, principal, wallet, chain, safe, safeTxHash(chain.chainId, safe, tx))
  const signer = await ctx.vault.getSigner(wallet.address)
  return signer.signTypedData(safeTxTypedData(chain.chainId, safe, tx))
}

/** Whether the wallet's Safe signature is a vault key's (audited as `vault.signature` of the SafeTx). */
export function signsSafeTxWithKey(wallet: Pick<WalletRecord, 'kind'>): boolean {
  return wallet.kind !== 'smart'
}
