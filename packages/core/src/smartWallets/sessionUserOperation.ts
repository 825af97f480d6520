import { type Address, hexToBigInt, keccak256, toHex } from 'viem'
import { entryPoint08Abi } from 'viem/account-abstraction'
import { maxGasCostOf } from '../bundler/maxGasCostOf.js'
import type { Bundler, SignedUserOperation } from '../bundler/types.js'
import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { accountAbstractionOf } from '../smartAccounts/accountAbstractionOf.js'
import { buildUserOperation, type PaymasterFields } from '../smartAccounts/buildUserOperation.js'
import { redeemCalldata } from '../smartAccounts/redeemCalldata.js'
import { signUserOperation } from '../smartAccounts/signUserOperation.js'
import type { SmartAccountCall } from '../smartAccounts/smartAccountCall.js'
import type { SmartWalletFields } from '../wallets/types.js'
import { sessionDelegationsOf } from './storedSession.js'

/**
 * The session account's user operation that makes the wallet execute `calls` (one batch: all or
 * none), signed by the session key from the vault: callData redeems the wallet's delegations, gas
 * limits from the bundler, fees from the node. Its nonce key is derived from `intentId`, so each
 * intent has its own nonce sequence and an op signed for it again (a crash before it was saved)
 * takes the same nonce: at most one of them is ever included. `maxCost` is what its prefund may take.
 * @example const { op, maxCost } = await sessionUserOperation(ctx, chain, smart, bundler, { intentId, calls })
 */
export async function sessionUserOperation(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  smart: SmartWalletFields,
  bundler: Bundler,
  target: { intentId: string; calls: readonly SmartAccountCall[] },
): Promise<{ op: SignedUserOperation; entryPoint: Address; maxCost: bigint }> {
  const { unsigned, entryPoint } = await unsignedSessionUserOperation(chain, smart, bundler, target)
  const op = await signSessionUserOperation(ctx, chain, smart, unsigned)
  return { op, entryPoint, maxCost: maxGasCostOf(op) }
}

/**
 * The session account's op for `calls`, priced (nonce, gas limits from the bundler, fees) but not
 * signed: with `paymaster` (a sponsor's stub fields) its gas covers the paymaster's check, and the
 * stub's gas limits are the ones the sponsor signs for. Sign it with {@link signSessionUserOperation}
 * once its paymaster fields are final (the session key's signature covers them).
 * @example const { unsigned } = await unsignedSessionUserOperation(chain, smart, bundler, { intentId, calls, paymaster: stub })
 */
export async function unsignedSessionUserOperation(
  chain: ChainHandle,
  smart: SmartWalletFields,
  bundler: Bundler,
  {
    intentId,
    calls,
    paymaster,
  }: { intentId: string; calls: readonly SmartAccountCall[]; paymaster?: PaymasterFields | undefined },
): Promise<{ unsigned: SignedUserOperation; entryPoint: Address }> {
  const { entryPoint } = accountAbstractionOf(chain)
  const sender = smart.sessionKey
  const [nonce, fees] = await Promise.all([
    chain.client.readContract({
      address: entryPoint,
      abi: entryPoint08Abi,
      functionName: 'getNonce',
      args: [sender, nonceKeyOf(intentId)],
    }),
    chain.client.estimateFeesPerGas(),
  ]).catch((error: unknown) => {
    throw toChainError(error, chain.name, { read: true })
  })
  const callData = redeemCalldata(sessionDelegationsOf(smart.session), calls)
  const unpriced = buildUserOperation({ sender, nonce, callData, gas: placeholderGas, fees, paymaster })
  const gas = await bundler.estimateUserOperationGas(unpriced, entryPoint)
  return { unsigned: { ...unpriced, ...gas, ...paymaster }, entryPoint }
}

/**
 * The op signed by the session key from the vault (EIP7702StatelessDeleGator's EIP-712 over it).
 * @example const op = await signSessionUserOperation(ctx, chain, smart, { ...unsigned, ...paymasterFields })
 */
export async function signSessionUserOperation(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  smart: SmartWalletFields,
  unsigned: SignedUserOperation,
): Promise<SignedUserOperation> {
  const { entryPoint } = accountAbstractionOf(chain)
  const signer = await ctx.vault.getSigner(smart.sessionKey)
  return signUserOperation(signer, unsigned, {
    chainId: chain.chainId,
    entryPoint,
    kind: 'EIP7702StatelessDeleGator',
  })
}

/** The 192-bit nonce key of an intent's op: its own sequence at the EntryPoint. */
export function nonceKeyOf(intentId: string): bigint {
  return hexToBigInt(keccak256(toHex(intentId))) >> 64n
}

const placeholderGas = { callGasLimit: 0n, verificationGasLimit: 0n, preVerificationGas: 0n }
