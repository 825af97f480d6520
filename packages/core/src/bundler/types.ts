import type { Address, Hex } from 'viem'
import type { UserOperation, UserOperationReceipt } from 'viem/account-abstraction'

/** A signed ERC-4337 v0.8 user operation, in viem's shape (unpacked; bigint gas fields). */
export type SignedUserOperation = UserOperation<'0.8'>

/** The gas limits a bundler estimates for a user operation (what the op must carry to be included). */
export type UserOperationGas = {
  preVerificationGas: bigint
  verificationGasLimit: bigint
  callGasLimit: bigint
  paymasterVerificationGasLimit?: bigint | undefined
  paymasterPostOpGasLimit?: bigint | undefined
}

/**
 * The Bundler port: how user operations reach the chain. The default submits `handleOps` itself from
 * a relayer account after the EntryPoint's own validation (an `eth_call`); an adapter speaks the
 * ERC-4337 bundler JSON-RPC (`eth_sendUserOperation`, …) to an external bundler.
 * @example const hash = await bundler.sendUserOperation(op, entryPoint08Address)
 */
export interface Bundler {
  readonly name: string
  /**
   * Validates the op as the EntryPoint would and hands it on; resolves with its userOpHash. Sending
   * the same signed op again answers the same hash (it is never included twice: the account's nonce).
   * A validation failure rejects with a 4xx code (the EntryPoint's `FailedOp` reason in `details`);
   * an unreachable bundler or node rejects with `chain_unavailable`.
   */
  sendUserOperation(op: SignedUserOperation, entryPoint: Address): Promise<Hex>
  /** The op's receipt once it is in a block; undefined while it is not (pending or unknown). */
  getUserOperationReceipt(hash: Hex): Promise<UserOperationReceipt | undefined>
  /** Gas limits for an op (its signature may be a placeholder of the right length). */
  estimateUserOperationGas(op: SignedUserOperation, entryPoint: Address): Promise<UserOperationGas>
}

/**
 * A tenant's verifying paymaster on a chain (`createAgentWallet({ paymaster })`): the contract
 * (packages/devnet/contracts/VerifyingPaymaster.sol, its EntryPoint deposit pays), and the vault key
 * that is its `verifyingSigner` — the service, never the agent, signs what it sponsors.
 */
export type TenantPaymaster = { address: Address; signer: Address }
