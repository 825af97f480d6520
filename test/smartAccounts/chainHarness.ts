import {
  type AccountAbstractionContracts,
  buildUserOperation,
  type DeleGatorKind,
  type Delegation,
  redeemCalldata,
  type SessionDelegations,
  type SessionPermissions,
  type SmartAccountCall,
  sessionDelegations,
  signDelegation,
  signUpgradeAuthorization,
  signUserOperation,
} from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  custom,
  decodeErrorResult,
  type Hex,
  type LocalAccount,
  parseAbi,
  parseEther,
  parseEventLogs,
  parseGwei,
} from 'viem'
import { entryPoint08Abi, toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'

export const gas = { verificationGasLimit: 1_000_000n, callGasLimit: 1_000_000n, preVerificationGas: 60_000n }
export const fees = { maxFeePerGas: parseGwei('10'), maxPriorityFeePerGas: parseGwei('1') }
const errorStringAbi = parseAbi(['error Error(string)'])

/** What one user operation did inside `handleOps`: its success, and its revert reason when it failed. */
export type OpOutcome = { success: boolean; reason: string | undefined }

/** The devnet's clients, a relayer (account 0) that submits `handleOps`, and the AA helpers the tests share. */
export function chainHarness(devnet: Devnet) {
  const contracts = devnet.addressBook.accountAbstraction as AccountAbstractionContracts
  const chainId = devnet.chain.id
  const transport = custom(devnet.provider, { retryCount: 0 })
  const publicClient = createPublicClient({ chain: devnet.chain, transport })
  const walletOf = (account: LocalAccount) => createWalletClient({ chain: devnet.chain, transport, account })
  const relayer = walletOf(privateKeyToAccount(devnet.accounts[0]!.privateKey))

  async function nonceOf(sender: Address): Promise<bigint> {
    return publicClient.readContract({
      address: contracts.entryPoint,
      abi: entryPoint08Abi,
      functionName: 'getNonce',
      args: [sender, 0n],
    })
  }

  /** Submits `op` in `handleOps` from the relayer; rejects when the EntryPoint refuses it (validation). */
  async function submit(op: UserOperation<'0.8'>): Promise<OpOutcome> {
    const hash = await relayer.writeContract({
      address: contracts.entryPoint,
      abi: entryPoint08Abi,
      functionName: 'handleOps',
      args: [[toPackedUserOperation(op)], relayer.account.address],
      gas: 5_000_000n,
    })
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success') throw new Error(`handleOps reverted: ${hash}`)
    const logs = parseEventLogs({ abi: entryPoint08Abi, logs: receipt.logs })
    const event = logs.find((log) => log.eventName === 'UserOperationEvent')
    const revert = logs.find((log) => log.eventName === 'UserOperationRevertReason')
    if (!event) throw new Error('no UserOperationEvent')
    return { success: event.args.success, reason: revert ? reasonOf(revert.args.revertReason) : undefined }
  }

  /** Signs and submits an op of `sender` (a DeleGator of `kind`) with `callData`. */
  async function sendOp(
    signer: LocalAccount,
    kind: DeleGatorKind,
    sender: Address,
    callData: Hex,
    deployment?: { factory: Address; factoryData: Hex },
  ): Promise<OpOutcome> {
    const op = buildUserOperation({ sender, nonce: await nonceOf(sender), callData, gas, fees, deployment })
    return submit(await signUserOperation(signer, op, { chainId, entryPoint: contracts.entryPoint, kind }))
  }

  /** A fresh session key, its EOA upgraded to EIP7702StatelessDeleGator (the relayer sends the type-4 tx). */
  async function newSessionAccount(): Promise<LocalAccount> {
    const session = privateKeyToAccount(generatePrivateKey())
    const authorization = await signUpgradeAuthorization(session, { chainId, contracts, nonce: 0 })
    const hash = await relayer.sendTransaction({ to: session.address, authorizationList: [authorization] })
    await publicClient.waitForTransactionReceipt({ hash })
    // ETH for its own transactions (the direct-redeem path), not for its user operations.
    await devnet.faucet(session.address, parseEther('1'))
    return session
  }

  /** Delegations from `wallet` to `session` carrying `permissions`, signed by the wallet's owner. */
  async function issue(
    owner: LocalAccount,
    wallet: Address,
    session: Address,
    permissions: SessionPermissions,
    salt = 0n,
  ): Promise<SessionDelegations> {
    const block = await publicClient.getBlock()
    const unsigned = sessionDelegations(contracts.enforcers, {
      wallet,
      session,
      permissions,
      startsAt: Number(block.timestamp),
      salt,
    })
    const sign = (delegation: Delegation) =>
      signDelegation(owner, delegation, { chainId, delegationManager: contracts.delegationManager })
    return {
      calls: unsigned.calls ? await sign(unsigned.calls) : undefined,
      transfers: await Promise.all(
        unsigned.transfers.map(async ({ token, delegation }) => ({
          token,
          delegation: await sign(delegation),
        })),
      ),
    }
  }

  /** The session key redeems `calls` through its own user operation (sender: its 7702 account). */
  function redeemByOp(session: LocalAccount, delegations: SessionDelegations, calls: SmartAccountCall[]) {
    return sendOp(session, 'EIP7702StatelessDeleGator', session.address, redeemCalldata(delegations, calls))
  }

  /** The session key redeems `calls` in a plain transaction to the DelegationManager; its revert reason, or undefined. */
  async function redeemByTx(
    session: LocalAccount,
    delegations: SessionDelegations,
    calls: SmartAccountCall[],
  ): Promise<OpOutcome> {
    try {
      const hash = await walletOf(session).sendTransaction({
        to: contracts.delegationManager,
        data: redeemCalldata(delegations, calls),
      })
      const receipt = await publicClient.waitForTransactionReceipt({ hash })
      return { success: receipt.status === 'success', reason: undefined }
    } catch (error) {
      return { success: false, reason: revertReasonIn(error) }
    }
  }

  async function depositOf(account: Address): Promise<bigint> {
    return publicClient.readContract({
      address: contracts.entryPoint,
      abi: entryPoint08Abi,
      functionName: 'balanceOf',
      args: [account],
    })
  }

  return {
    contracts,
    chainId,
    publicClient,
    relayer,
    walletOf,
    nonceOf,
    submit,
    sendOp,
    newSessionAccount,
    issue,
    redeemByOp,
    redeemByTx,
    depositOf,
  }
}

function reasonOf(data: Hex): string {
  try {
    const decoded = decodeErrorResult({ abi: errorStringAbi, data })
    return decoded.args[0]
  } catch {
    return data
  }
}

/** The revert reason viem found while estimating a transaction: the enforcer's message, or its error's data. */
function revertReasonIn(error: unknown): string {
  let current: unknown = error
  while (current && typeof current === 'object') {
    const { reason, data, cause } = current as { reason?: string; data?: unknown; cause?: unknown }
    if (typeof reason === 'string') return reason
    if (typeof data === 'string' && data.startsWith('0x')) return reasonOf(data as Hex)
    current = cause
  }
  return String(error)
}
