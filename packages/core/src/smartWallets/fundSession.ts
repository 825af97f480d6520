import { type Address, concat, encodeFunctionData, type Hex, parseEther } from 'viem'
import { entryPoint08Abi, getUserOperationHash } from 'viem/account-abstraction'
import { recordAudit } from '../audit/recordAudit.js'
import { userOperationSigned } from '../audit/userOperationSigned.js'
import type { Bundler } from '../bundler/types.js'
import { toChainError } from '../chain/toChainError.js'
import type { AccountAbstractionContracts, ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { isAgentWalletError } from '../errors/baseError.js'
import { accountAbstractionOf } from '../smartAccounts/accountAbstractionOf.js'
import { buildUserOperation } from '../smartAccounts/buildUserOperation.js'
import { signUserOperation } from '../smartAccounts/signUserOperation.js'
import { smartWalletDeployment } from '../smartAccounts/smartWalletDeployment.js'
import { walletCalldata } from '../smartAccounts/walletCalls.js'
import type { SmartWalletFields, WalletRecord } from '../wallets/types.js'

/** The wallet an owner op is for: its address, and the records its audit entry names. */
type WalletRef = Pick<WalletRecord, 'address' | 'id' | 'tenantId'>

/** The least the wallet moves into the session account's EntryPoint deposit at a time. */
const minimumTopUp = parseEther('0.01')
/** Gas a session op may take at most (validation, redemption, pre-verification): what the deposit must cover. */
const userOperationGasBudget = 2_000_000n

/**
 * Readies a smart wallet's session account to pay its next op's gas (`userOperationGasBudget` at the
 * node's current max fee): its EOA runs the session
 * DeleGator (the relayer's type-4 tx at creation), the wallet exists on chain and the session
 * account's EntryPoint deposit covers it. When the wallet is not deployed yet or the deposit is short,
 * the wallet's owner key signs the wallet's own op — deployed from the factory on first use, then
 * `depositTo(session)` of at least `minimumTopUp` (twice the shortfall) — paid from the wallet's ETH,
 * and the bundler carries it. `waiting` while the chain does not show it ready yet (the tracker
 * tries again); the wallet pays every op's gas this way. Callers hold the wallet's
 * `userOperationLockKey`: two top-ups at once would take the same EntryPoint nonce.
 * @example if ((await fundSession(ctx, chain, wallet.address, smart, bundler)) === 'waiting') return record
 */
export async function fundSession(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  wallet: WalletRef,
  smart: SmartWalletFields,
  bundler: Bundler,
): Promise<'ready' | 'waiting'> {
  const contracts = accountAbstractionOf(chain)
  const [state, fees] = await Promise.all([
    sessionState(chain, contracts, wallet.address, smart),
    chain.client.estimateFeesPerGas().catch((error: unknown) => {
      throw toChainError(error, chain.name, { read: true })
    }),
  ])
  const maxCost = userOperationGasBudget * fees.maxFeePerGas
  if (!state.delegated) return 'waiting'
  if (state.deployed && state.deposit >= maxCost) return 'ready'
  const topUp = maxCost * 2n > minimumTopUp ? maxCost * 2n : minimumTopUp
  const callData = walletCalldata([
    {
      to: contracts.entryPoint,
      value: topUp,
      data: encodeFunctionData({ abi: entryPoint08Abi, functionName: 'depositTo', args: [smart.sessionKey] }),
    },
  ])
  try {
    await ownerUserOperation(ctx, chain, wallet, smart, bundler, callData)
  } catch (error) {
    // Another owner op of this wallet (another process's top-up) took the nonce first: wait for it.
    if (isNonceTaken(error)) return 'waiting'
    throw error
  }
  const after = await sessionState(chain, contracts, wallet.address, smart)
  return after.deployed && after.deposit >= maxCost ? 'ready' : 'waiting'
}

function isNonceTaken(error: unknown): boolean {
  if (!isAgentWalletError(error) || error.code !== 'user_operation_rejected') return false
  return String((error.details as { reason?: unknown } | undefined)?.reason ?? '').startsWith('AA25')
}

/**
 * The wallet's own user operation of `callData` (`walletCalldata`), signed by its owner key from the
 * vault and paid from the wallet's ETH, handed to the bundler: deploying a HybridDeleGator wallet
 * first from the factory when it has no code yet — unless `deployedOnly`, when an undeployed wallet
 * sends nothing (false).
 * @example await ownerUserOperation(ctx, chain, wallet, smart, bundler, walletCalldata(revokeSessionCalls(old)), { deployedOnly: true })
 */
export async function ownerUserOperation(
  ctx: AgentWalletContext,
  chain: ChainHandle,
  wallet: WalletRef,
  smart: SmartWalletFields,
  bundler: Bundler,
  callData: Hex,
  { deployedOnly = false }: { deployedOnly?: boolean } = {},
): Promise<boolean> {
  const contracts = accountAbstractionOf(chain)
  const [code, nonce, fees] = await Promise.all([
    chain.client.getCode({ address: wallet.address }),
    chain.client.readContract({
      address: contracts.entryPoint,
      abi: entryPoint08Abi,
      functionName: 'getNonce',
      args: [wallet.address, 0n],
    }),
    chain.client.estimateFeesPerGas(),
  ]).catch((error: unknown) => {
    throw toChainError(error, chain.name, { read: true })
  })
  const deployed = (code ?? '0x') !== '0x'
  if (deployedOnly && !deployed) return false
  const deployment =
    smart.account === 'hybrid' && !deployed
      ? await smartWalletDeployment(contracts, { owner: smart.owner })
      : undefined
  const unpriced = buildUserOperation({
    sender: wallet.address,
    nonce,
    callData,
    gas: { callGasLimit: 0n, verificationGasLimit: 0n, preVerificationGas: 0n },
    fees,
    deployment,
  })
  const gas = await bundler.estimateUserOperationGas(unpriced, contracts.entryPoint)
  const op = await signUserOperation(
    await ctx.vault.getSigner(smart.owner),
    { ...unpriced, ...gas },
    {
      chainId: chain.chainId,
      entryPoint: contracts.entryPoint,
      kind: smart.account === 'hybrid' ? 'HybridDeleGator' : 'EIP7702StatelessDeleGator',
    },
  )
  const userOpHash = getUserOperationHash({
    chainId: chain.chainId,
    entryPointAddress: contracts.entryPoint,
    entryPointVersion: '0.8',
    userOperation: op,
  })
  // No commit saves the owner's op: its signature is recorded, in a commit of its own, before it is used.
  await recordAudit(ctx, wallet.tenantId, {
    kind: 'vault.signature',
    subjects: { walletId: wallet.id, keyId: smart.owner },
    payload: userOperationSigned(
      { hash: userOpHash, entryPoint: contracts.entryPoint, sender: wallet.address },
      chain.chainId,
    ),
  })
  await bundler.sendUserOperation(op, contracts.entryPoint)
  return true
}

/**
 * Whether the session EOA runs the DeleGator, the wallet has code (a HybridDeleGator deployed, an
 * upgraded EOA delegated), and the session account's EntryPoint deposit.
 * @example const { delegated, deployed } = await sessionState(chain, contracts, wallet.address, smart)
 */
export async function sessionState(
  chain: ChainHandle,
  contracts: AccountAbstractionContracts,
  wallet: Address,
  smart: SmartWalletFields,
): Promise<{ delegated: boolean; deployed: boolean; deposit: bigint }> {
  const [sessionCode, walletCode, deposit] = await Promise.all([
    chain.client.getCode({ address: smart.sessionKey }),
    chain.client.getCode({ address: wallet }),
    chain.client.readContract({
      address: contracts.entryPoint,
      abi: entryPoint08Abi,
      functionName: 'balanceOf',
      args: [smart.sessionKey],
    }),
  ]).catch((error: unknown) => {
    throw toChainError(error, chain.name, { read: true })
  })
  const designator = concat(['0xef0100', contracts.eip7702DeleGator]).toLowerCase()
  return {
    delegated: sessionCode?.toLowerCase() === designator,
    deployed:
      smart.account === 'hybrid' ? (walletCode ?? '0x') !== '0x' : walletCode?.toLowerCase() === designator,
    deposit,
  }
}
