import { appendFileSync } from 'node:fs'
import {
  type AgentWallet,
  type AgentWalletConfig,
  type ApprovalSummary,
  type AuditLine,
  type AuditVerification,
  auditLines,
  createAgentWallet,
  type DomainEvent,
  effectsDiffer,
  fromStoredEffects,
  memoryStorage,
  type Principal,
  rulesPolicyEngine,
  type SendAnswer,
  type TransactionRecord,
  verifyAuditTrail,
} from '@agentwallet/core'
import { type CreateDevnetOptions, createDevnet, type Devnet } from '@agentwallet/devnet'
import { type Address, createPublicClient, custom, type PublicClient, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect } from 'vitest'
import { startAnvilDevnet } from './anvil.js'

/** A second principal of the default tenant that may approve what the local admin asked for. */
export const approver: Principal = { tenantId: 'default', id: 'human-approver', role: 'approver' }

/** The nodes the chain-truth tests run on: the embedded devnet (EDR), or anvil with the protocol set. */
export type TestNode = 'devnet' | 'anvil'

/** Starts a devnet (once per test file): the embedded one, or anvil with the protocol set (`node`). */
export async function startDevnet(options: CreateDevnetOptions & { node?: TestNode } = {}): Promise<Devnet> {
  const { node = 'devnet', ...devnetOptions } = options
  if (node === 'devnet') return createDevnet(devnetOptions)
  if (Object.keys(devnetOptions).length > 0) throw new Error('startDevnet: anvil takes no devnet options')
  return startAnvilDevnet()
}

/** A devnet-backed AgentWallet with no default rules and a fast tracker, for tests. */
export function agentWalletOn(devnet: Devnet, config: Partial<AgentWalletConfig> = {}): Promise<AgentWallet> {
  return createAgentWallet({
    chains: {
      devnet: { provider: devnet.provider, chainId: devnet.chain.id, contracts: devnet.addressBook },
    },
    storage: memoryStorage(),
    defaultTenantRules: [],
    trackerIntervalMs: 20,
    rebroadcastAfterMs: 200,
    checkOperations: true,
    ...config,
  })
}

export function publicClientOf(devnet: Devnet): PublicClient {
  return createPublicClient({
    chain: devnet.chain,
    transport: custom(devnet.provider),
    pollingInterval: 20,
  }) as PublicClient
}

/** A fresh address nobody holds a key to in this test (balance 0). */
export function freshAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address
}

/** Collects, from now on, the events of one type that `aw`'s bus publishes. */
export function eventsOf(aw: AgentWallet, type: DomainEvent['type']): DomainEvent[] {
  const seen: DomainEvent[] = []
  aw.bus.on('*', (event) => {
    if (event.type === type) seen.push(event)
  })
  return seen
}

/** The approval a send paused for; throws (failing the test) when the send did not pause. */
export function approvalOf(answer: SendAnswer): ApprovalSummary {
  if (answer.status !== 'pending_approval')
    throw new Error(`Expected the send to pause, it is ${answer.status}`)
  return answer.approval
}

/** The stored record of a transaction: fields the API view never shows (raw bytes, call, history). */
export async function storedTransaction(aw: AgentWallet, id: string): Promise<TransactionRecord> {
  const record = await aw.context.storage.get('transactions', id)
  if (!record) throw new Error(`No stored transaction ${id}`)
  return record
}

/** Creates a wallet and funds it from the devnet faucet. */
export async function fundedWallet(aw: AgentWallet, devnet: Devnet, eth = '100', name = 'agent') {
  const { wallet } = await aw.createWallet({ agentName: name })
  await devnet.faucet(wallet.address, parseEther(eth))
  return wallet
}

/**
 * Registers beforeAll/afterAll hooks that start a devnet and an AgentWallet on it for one test
 * file, and hand both to `assign` (the file keeps its own `devnet` and `aw` variables).
 * @example let devnet: Devnet; let aw: AgentWallet; useDevnetAgentWallet((started) => ({ devnet, aw } = started))
 */
export function useDevnetAgentWallet(
  assign: (started: { devnet: Devnet; aw: AgentWallet }) => void,
  config: Partial<AgentWalletConfig> = {},
  devnetOptions: Parameters<typeof startDevnet>[0] = {},
): void {
  let started: { devnet: Devnet; aw: AgentWallet } | undefined
  beforeAll(async () => {
    const devnet = await startDevnet(devnetOptions)
    started = { devnet, aw: await agentWalletOn(devnet, config) }
    assign(started)
  })
  afterAll(async () => {
    // Every tx the file confirmed did what it was predicted to do (docs/policy.md, Effects).
    if (started) expect((await recordFidelity(started.aw)).differed).toEqual([])
    await started?.aw.close()
    // Everything the file did is in the audit trail, and it verifies offline, decisions re-run (docs/security.md).
    if (started) expect((await verifyTrail(started.aw)).problems).toEqual([])
    await started?.devnet.close()
  })
}

/**
 * The audit trail of every tenant of `aw`, exported and verified as `agentwallet audit verify` does
 * (hashes, chain, checkpoints, every decision re-run with the rules engine). Call it after `close`,
 * which signs the last checkpoint.
 */
export async function verifyTrail(aw: AgentWallet): Promise<AuditVerification> {
  const { storage } = aw.context
  const tenants = new Set(['default', ...(await storage.query('tenants')).map((tenant) => tenant.id)])
  const lines: AuditLine[] = []
  for (const tenantId of tenants) for await (const line of auditLines(storage, tenantId)) lines.push(line)
  return verifyAuditTrail(lines, { engine: rulesPolicyEngine() })
}

/**
 * The fidelity of effects over a test file: every confirmed tx whose effects were predicted before
 * signing and read back from its receipt, compared (`effectsDiffer`). With AGENTWALLET_FIDELITY_LOG
 * set, one JSON line per file goes to that file: the count compared and each that differed.
 */
export async function recordFidelity(aw: AgentWallet): Promise<{ compared: number; differed: string[] }> {
  const confirmed = await aw.context.storage.query('transactions', { where: { status: 'confirmed' } })
  let compared = 0
  const differed: string[] = []
  for (const record of confirmed) {
    if (!record.effects || !record.receiptEffects) continue
    compared++
    const differ = effectsDiffer(
      fromStoredEffects(record.effects),
      fromStoredEffects(record.receiptEffects),
      {
        to: record.call.to,
        value: BigInt(record.call.value),
      },
    )
    if (differ) differed.push(record.id)
  }
  const log = process.env.AGENTWALLET_FIDELITY_LOG
  if (log)
    appendFileSync(log, `${JSON.stringify({ file: expect.getState().testPath, compared, differed })}\n`)
  return { compared, differed }
}

/**
 * The answer narrowed to one `status` (a union member), or a failed test naming the status it had.
 * @example const swapped = withStatus(await aw.swap({ … }), 'confirmed'); swapped.amountOutRaw
 */
export function withStatus<T extends { status: string }, S extends T['status']>(
  answer: T,
  status: S,
): Extract<T, { status: S }> {
  if (answer.status !== status)
    throw new Error(
      `expected status ${status}, got ${answer.status}: ${JSON.stringify(answer).slice(0, 300)}`,
    )
  return answer as Extract<T, { status: S }>
}
