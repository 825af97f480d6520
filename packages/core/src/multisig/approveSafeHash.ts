import { type Address, concat, encodeFunctionData, type Hex, pad, zeroHash } from 'viem'
import { safeAbi } from '../chain/safeAbi.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { ConflictError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import { toApprovalSummary } from '../transactions/approvalSummary.js'
import { submitIntent } from '../transactions/submitIntent.js'
import { waitForFinalStatus } from '../transactions/waitForTransaction.js'
import type { WalletRecord } from '../wallets/types.js'

/**
 * A smart wallet's signature for a Safe transaction. Safe 1.4.1 checks a contract owner's signature
 * (v = 0) by calling the owner's legacy `isValidSignature(bytes data, bytes signature)` (magic
 * `0x20c13b0b`), which a HybridDeleGator does not have: it answers ERC-1271's
 * `isValidSignature(bytes32, bytes)` only, so such a signature would revert `execTransaction`. So the
 * wallet **approves the safeTxHash on chain** — `approveHash(safeTxHash)` on the Safe, a call of the
 * wallet's carried by its session key's user operation through the money path (kind `multisig`, pays
 * nothing; judged by its policy, events and history as any call) — and its signature is Safe's
 * approved-hash form (v = 1): r = the wallet's address, s = 0, which any executor may present.
 * Idempotent per wallet and safeTxHash: asked again, it answers the approval already made.
 * A paused approval is `conflict` (`approval_pending`): approve it, then confirm again.
 * @example const signature = await approveSafeHash(ctx, principal, wallet, chain, safe, safeTxHash)
 */
export async function approveSafeHash(
  ctx: AgentWalletContext,
  principal: Principal,
  wallet: WalletRecord,
  chain: ChainHandle,
  safe: Address,
  safeTxHash: Hex,
): Promise<Hex> {
  const submitted = await submitIntent(
    ctx,
    principal,
    wallet,
    {
      kind: 'multisig',
      chain: chain.name,
      to: safe,
      asset: { address: 'native', symbol: chain.nativeSymbol, decimals: chain.nativeDecimals },
      amount: 0n,
      call: {
        to: safe,
        value: 0n,
        data: encodeFunctionData({ abi: safeAbi, functionName: 'approveHash', args: [safeTxHash] }),
      },
      meta: { purpose: 'safe_approve_hash', safeAddress: safe, safeTxHash },
    },
    { idempotencyKey: `safe-approve:${wallet.address}:${safeTxHash}`, request: { safe, safeTxHash } },
  )
  if (submitted.status === 'pending_approval') {
    throw new ConflictError("The wallet's approval of this Safe transaction awaits a human approval", {
      details: {
        reason: 'approval_pending',
        transactionId: submitted.transaction.id,
        approval: toApprovalSummary(submitted.approval),
      },
    })
  }
  const done = await waitForFinalStatus(ctx, submitted.transaction.id)
  const approved =
    done.status === 'confirmed' &&
    (await chain.client.readContract({
      address: safe,
      abi: safeAbi,
      functionName: 'approvedHashes',
      args: [wallet.address, safeTxHash],
    })) !== 0n
  if (!approved) {
    throw new BaseError(
      'transaction_failed',
      'The approval of the Safe transaction did not succeed on chain',
      {
        details: { step: 'safe approveHash', transactionId: done.id, hash: done.hash, status: done.status },
      },
    )
  }
  return approvedHashSignature(wallet.address)
}

/** Safe's approved-hash signature (v = 1) of `owner`: valid once it approved the hash, or when it executes. */
export function approvedHashSignature(owner: Address): Hex {
  return concat([pad(owner), zeroHash, '0x01'])
}
