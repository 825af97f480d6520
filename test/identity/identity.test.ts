import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AgentWallet, IdentityStep, RegisterIdentityParameters, Storage } from '@agentwallet/core'
import { fromDataUri } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { identityRegistryAbi } from '@agentwallet/devnet'
import { sqliteStorage } from '@agentwallet/sqlite'
import {
  ContractFunctionRevertedError,
  decodeFunctionData,
  encodeFunctionData,
  type Hex,
  toFunctionSelector,
  BaseError as ViemError,
  verifyTypedData,
  zeroAddress,
} from 'viem'
import { afterAll, describe, expect, it } from 'vitest'
import {
  agentWalletOn,
  eventsOf,
  freshAddress,
  fundedWallet,
  publicClientOf,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
let aw: AgentWallet

useDevnetAgentWallet((started) => ({ devnet, aw } = started))

/** Registers with no approval in the way: the identity comes back at once. */
async function registerNow(wallet: AgentWallet, parameters: RegisterIdentityParameters) {
  const result = await wallet.registerIdentity(parameters)
  if (result.status !== 'registered') throw new Error(`Expected a registered identity, got ${result.status}`)
  return result.identity
}

const human = () => aw.as({ tenantId: 'default', id: 'human', role: 'approver' })
const registrationOf = (id: string) => aw.context.storage.get('identities', id)

const registry = () =>
  ({ address: devnet.addressBook.erc8004.identityRegistry, abi: identityRegistryAbi }) as const

/** Approves each paused step until the registration pauses at `step`; returns that step's approval id. */
async function approveUntil(id: string, firstApprovalId: string, step: IdentityStep): Promise<string> {
  let approvalId = firstApprovalId
  for (;;) {
    const record = (await registrationOf(id))!
    if (record.step === step && record.status === 'awaiting_approval' && record.approvalId === approvalId)
      return approvalId
    await human().approve({ approvalId })
    await expect
      .poll(
        async () => {
          const next = await registrationOf(id)
          return next?.status === 'awaiting_approval' && next.approvalId !== approvalId
        },
        { timeout: 20_000 },
      )
      .toBe(true)
    approvalId = (await registrationOf(id))!.approvalId!
  }
}

/** The arguments of a `setAgentWallet` call. */
function decodeSetAgentWallet(data: Hex) {
  const { functionName, args } = decodeFunctionData({ abi: identityRegistryAbi, data })
  if (functionName !== 'setAgentWallet') throw new Error(`expected setAgentWallet, got ${functionName}`)
  const [agentId, newWallet, deadline, signature] = args
  return { agentId, newWallet, deadline, signature }
}

/** The custom error a call reverts with, by its ABI name. */
function revertName(error: unknown): string | undefined {
  const reverted =
    error instanceof ViemError ? error.walk((cause) => cause instanceof ContractFunctionRevertedError) : null
  return reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : undefined
}

describe('ERC-8004 identities', () => {
  it('registers an identity and reads it back from chain, with the registration file and metadata', async () => {
    const client = publicClientOf(devnet)
    const wallet = await fundedWallet(aw, devnet, '1', 'scout')
    const identity = await registerNow(aw, {
      wallet: wallet.address,
      agentName: 'scout',
      agentType: 'research',
      capabilities: ['search', 'summarize'],
      services: [{ name: 'A2A', endpoint: 'https://scout.example/agent.json' }],
    })
    expect(identity.walletAddress).toBe(wallet.address)
    const agentId = BigInt(identity.agentId)
    expect(await client.readContract({ ...registry(), functionName: 'ownerOf', args: [agentId] })).toBe(
      wallet.address,
    )
    expect(
      await client.readContract({ ...registry(), functionName: 'getAgentWallet', args: [agentId] }),
    ).toBe(wallet.address)

    const uri = await client.readContract({ ...registry(), functionName: 'tokenURI', args: [agentId] })
    expect(uri.startsWith('data:application/json;base64,')).toBe(true)
    expect(fromDataUri(uri)).toMatchObject({
      name: 'scout',
      agentType: 'research',
      capabilities: ['search', 'summarize'],
      services: [{ name: 'A2A', endpoint: 'https://scout.example/agent.json' }],
      registrations: [
        {
          agentId: identity.agentId,
          agentRegistry: `eip155:31337:${devnet.addressBook.erc8004.identityRegistry}`,
        },
      ],
    })

    const { identity: read } = await aw.getIdentity({ agentId: identity.agentId })
    expect(read.status).toBe('active')
    expect(read.walletBound).toBe(true)
    expect(read.onChain).toEqual({
      owner: wallet.address,
      agentURI: uri,
      agentWallet: wallet.address,
      metadata: { agentName: 'scout', agentType: 'research' },
    })
    expect(read.capabilities).toEqual(['search', 'summarize'])
    expect(read.registries.validation).toBe(devnet.addressBook.erc8004.validationRegistry)
    expect(read.warnings).toEqual([])

    // Every step went through the money path as an `identity` intent.
    const history = await aw.listHistory({ wallet: wallet.address, limit: 10 })
    expect(history.transactions.map((tx) => tx.kind)).toEqual(['identity', 'identity'])

    expect((await aw.listIdentities()).identities.map((entry) => entry.agentId)).toContain(identity.agentId)
    const ofWallet = await aw.identitiesOfWallet({ wallet: wallet.address })
    expect(ofWallet.count).toBe(1)
    expect(ofWallet.identities[0]?.agentId).toBe(identity.agentId)
  })

  it('gives a proof of ownership anyone can verify with viem', async () => {
    const wallet = await fundedWallet(aw, devnet, '1', 'prover')
    const identity = await registerNow(aw, {
      wallet: wallet.address,
      agentName: 'prover',
      agentType: 'oracle',
    })
    const { proof } = (await aw.getIdentity({ agentId: identity.agentId })).identity
    // Round-trip through JSON, as an HTTP client would receive it.
    const received = JSON.parse(JSON.stringify(proof)) as typeof proof
    const { domain, types, primaryType, message } = received.typedData
    const verify = (address: `0x${string}`) =>
      verifyTypedData({
        address,
        domain,
        types,
        primaryType,
        signature: received.signature,
        message: {
          ...message,
          chainId: BigInt(message.chainId),
          agentId: BigInt(message.agentId),
          issuedAt: BigInt(message.issuedAt),
        },
      })
    expect(received.signer).toBe(wallet.address)
    expect(message).toMatchObject({
      chainId: '31337',
      registry: devnet.addressBook.erc8004.identityRegistry,
      agentId: identity.agentId,
      agentWallet: wallet.address,
    })
    expect(await verify(wallet.address)).toBe(true)
    expect(await verify(freshAddress())).toBe(false)
  })

  it('binds a separate agent wallet with its EIP-712 signature when another managed wallet owns the NFT', async () => {
    const client = publicClientOf(devnet)
    const owner = await fundedWallet(aw, devnet, '1', 'owner')
    const { wallet: agent } = await aw.createWallet({ agentName: 'worker' })
    const identity = await registerNow(aw, {
      wallet: agent.address,
      owner: owner.address,
      agentName: 'worker',
      agentType: 'executor',
    })
    const agentId = BigInt(identity.agentId)
    expect(await client.readContract({ ...registry(), functionName: 'ownerOf', args: [agentId] })).toBe(
      owner.address,
    )
    expect(
      await client.readContract({ ...registry(), functionName: 'getAgentWallet', args: [agentId] }),
    ).toBe(agent.address)
    expect((await aw.getIdentity({ agentId: identity.agentId })).identity.status).toBe('active')
    expect((await aw.listHistory({ wallet: owner.address })).count).toBe(3)
  })

  it('reports that a transfer of the NFT cleared the agent wallet', async () => {
    const wallet = await fundedWallet(aw, devnet, '1', 'seller')
    const identity = await registerNow(aw, {
      wallet: wallet.address,
      agentName: 'seller',
      agentType: 'trading',
    })
    const buyer = freshAddress()
    const { transaction } = await aw.send({
      wallet: wallet.address,
      to: devnet.addressBook.erc8004.identityRegistry,
      value: '0',
      data: encodeFunctionData({
        abi: identityRegistryAbi,
        functionName: 'transferFrom',
        args: [wallet.address, buyer, BigInt(identity.agentId)],
      }),
    })
    expect((await aw.waitForTransaction({ transaction: transaction.id })).status).toBe('confirmed')

    const { identity: read } = await aw.getIdentity({ agentId: identity.agentId })
    expect(read.status).toBe('wallet_unbound')
    expect(read.walletBound).toBe(false)
    expect(read.onChain.owner).toBe(buyer)
    expect(read.onChain.agentWallet).toBe(null)
    expect(read.proof.matchesChain).toBe(false)
    expect(read.warnings).toHaveLength(2)
    const client = publicClientOf(devnet)
    expect(
      await client.readContract({
        ...registry(),
        functionName: 'getAgentWallet',
        args: [BigInt(identity.agentId)],
      }),
    ).toBe(zeroAddress)
  })

  it('refuses bad input and unknown identities with their codes', async () => {
    const wallet = await fundedWallet(aw, devnet, '1', 'bad')
    await expect(
      aw.registerIdentity({ wallet: wallet.address, agentName: '', agentType: 'x' }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
    })
    await expect(
      aw.registerIdentity({
        wallet: wallet.address,
        agentName: 'a',
        agentType: 'x',
        extra: 1,
      } as never),
    ).rejects.toMatchObject({ code: 'validation_failed' })
    await expect(
      aw.registerIdentity({ wallet: freshAddress(), agentName: 'a', agentType: 'x' }),
    ).rejects.toMatchObject({
      code: 'not_found',
    })
    await expect(aw.getIdentity({ agentId: '999999' })).rejects.toMatchObject({ code: 'not_found' })
    await expect(aw.getIdentity({ agentId: '-1' })).rejects.toMatchObject({ code: 'validation_failed' })
    await expect(aw.identitiesOfWallet({ wallet: freshAddress() })).rejects.toMatchObject({
      code: 'not_found',
    })
  })

  it('blocks registration through the policy engine', async () => {
    const wallet = await fundedWallet(aw, devnet, '1', 'blocked')
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'allow_contracts', contracts: [{ address: freshAddress() }] }],
    })
    await expect(
      aw.registerIdentity({ wallet: wallet.address, agentName: 'blocked', agentType: 'x' }),
    ).rejects.toMatchObject({ code: 'policy_blocked' })
    expect((await aw.identitiesOfWallet({ wallet: wallet.address })).count).toBe(0)
  })
})

describe('ERC-8004 registration under human approval', () => {
  // Each step goes through the policy on its own: a rule that pauses every identity call of the
  // owner wallet pauses the mint, then setAgentURI, then setAgentWallet, each approved separately.
  it('pauses each step for approval, continues after each approve, and ends registered with one identity.registered', async () => {
    const client = publicClientOf(devnet)
    const owner = await fundedWallet(aw, devnet, '1', 'hitl-owner')
    const { wallet: agent } = await aw.createWallet({ agentName: 'hitl-agent' })
    await aw.updatePolicyRules({
      wallet: owner.address,
      rules: [{ type: 'require_approval', always: true }],
    })
    const registered: string[] = []
    aw.bus.on('identity.registered', (event) => {
      const data = event.data as { walletAddress: string; agentId: string }
      if (data.walletAddress === agent.address) registered.push(data.agentId)
    })

    const result = await aw.registerIdentity({
      wallet: agent.address,
      owner: owner.address,
      agentName: 'hitl',
      agentType: 'executor',
      capabilities: ['approve-me'],
    })
    if (result.status !== 'pending_approval') throw new Error('expected a paused registration')
    expect(result.status).toBe('pending_approval')
    expect(result.identity).toMatchObject({
      status: 'awaiting_approval',
      step: 'register',
      agentId: null,
      approvalId: result.approval.id,
      walletAddress: agent.address,
      ownerAddress: owner.address,
    })
    expect((await aw.identitiesOfWallet({ wallet: agent.address })).count).toBe(0)

    const steps: string[] = []
    let approvalId = result.approval.id
    for (const step of ['register', 'setAgentURI', 'setAgentWallet'] as const) {
      steps.push(step)
      await human().approve({ approvalId })
      if (step === 'setAgentWallet') break
      // The next step goes through the policy again and pauses for its own approval.
      await expect
        .poll(async () => (await registrationOf(result.identity.id))?.step, { timeout: 20_000 })
        .toBe(step === 'register' ? 'setAgentURI' : 'setAgentWallet')
      await expect
        .poll(async () => (await registrationOf(result.identity.id))?.status, { timeout: 20_000 })
        .toBe('awaiting_approval')
      const record = (await registrationOf(result.identity.id))!
      expect(record.approvalId).not.toBe(approvalId)
      approvalId = record.approvalId!
    }
    expect(steps).toEqual(['register', 'setAgentURI', 'setAgentWallet'])
    await expect
      .poll(async () => (await registrationOf(result.identity.id))?.status, { timeout: 20_000 })
      .toBe('registered')

    const record = (await registrationOf(result.identity.id))!
    const agentId = BigInt(record.agentId!)
    expect(await client.readContract({ ...registry(), functionName: 'ownerOf', args: [agentId] })).toBe(
      owner.address,
    )
    expect(
      await client.readContract({ ...registry(), functionName: 'getAgentWallet', args: [agentId] }),
    ).toBe(agent.address)
    const uri = await client.readContract({ ...registry(), functionName: 'tokenURI', args: [agentId] })
    expect(uri).toBe(record.agentURI)
    expect(fromDataUri(uri)).toMatchObject({ name: 'hitl', capabilities: ['approve-me'] })
    expect((await aw.getIdentity({ agentId: record.agentId! })).identity.status).toBe('active')
    expect((await aw.identitiesOfWallet({ wallet: agent.address })).count).toBe(1)
    await expect.poll(() => registered, { timeout: 5_000 }).toEqual([record.agentId])
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(registered).toEqual([record.agentId])
    expect((await aw.listHistory({ wallet: owner.address })).count).toBe(3)
  })

  it('ends the registration failed with the reason when the approver rejects a step', async () => {
    const wallet = await fundedWallet(aw, devnet, '1', 'hitl-rejected')
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [{ type: 'require_approval', always: true }],
    })
    const result = await aw.registerIdentity({
      wallet: wallet.address,
      agentName: 'rejected',
      agentType: 'x',
    })
    if (result.status !== 'pending_approval') throw new Error('expected a paused registration')
    const failures = eventsOf(aw, 'operation.failed')
    await human().reject({ approvalId: result.approval.id, reason: 'not this agent' })
    await expect
      .poll(async () => (await registrationOf(result.identity.id))?.status, { timeout: 20_000 })
      .toBe('failed')
    const record = (await registrationOf(result.identity.id))!
    expect(record.step).toBe('register')
    expect(record.error).toMatchObject({ code: 'transaction_failed' })
    expect(record.error?.message).toContain('rejected')
    await expect
      .poll(() => failures.map((event) => event.data))
      .toEqual([
        {
          operation: 'identity',
          operationId: record.id,
          walletId: record.walletId,
          step: 'register',
          error: record.error,
        },
      ])
    expect((await aw.identitiesOfWallet({ wallet: wallet.address })).count).toBe(0)
    expect((await aw.listHistory({ wallet: wallet.address })).transactions.map((tx) => tx.status)).toEqual([
      'rejected',
    ])
  })
})

describe('ERC-8004 setAgentWallet approved after its signature would have lapsed', () => {
  // The registry refuses a deadline more than MAX_DEADLINE_DELAY (5 min) past block time, so a
  // signature made when the step paused cannot outlive a slow approval: it is made when the step runs.
  it('re-signs at execution: an approval later than the deadline cap binds the wallet with one transaction', async () => {
    const client = publicClientOf(devnet)
    const owner = await fundedWallet(aw, devnet, '1', 'slow-owner')
    const { wallet: agent } = await aw.createWallet({ agentName: 'slow-agent' })
    await aw.updatePolicyRules({
      wallet: owner.address,
      rules: [{ type: 'require_approval', always: true }],
    })
    const result = await aw.registerIdentity({
      wallet: agent.address,
      owner: owner.address,
      agentName: 'slow',
      agentType: 'executor',
    })
    if (result.status !== 'pending_approval') throw new Error('expected a paused registration')
    const id = result.identity.id
    const approvalId = await approveUntil(id, result.approval.id, 'setAgentWallet')

    const paused = (await registrationOf(id))!
    const pausedTx = (await aw.context.storage.get('transactions', paused.transactions.setAgentWallet!))!
    expect(pausedTx.status).toBe('pending_approval')
    const pausedCall = decodeSetAgentWallet(pausedTx.call.data!)
    expect(pausedCall.agentId).toBe(BigInt(paused.agentId!))
    expect(pausedCall.newWallet).toBe(agent.address)

    // The human takes longer than the registry lets a signature live.
    const maxDeadlineDelay = await client.readContract({ ...registry(), functionName: 'MAX_DEADLINE_DELAY' })
    await devnet.increaseTime(Number(maxDeadlineDelay) + 60)
    await devnet.mine()
    const latest = await client.getBlock()
    expect(latest.timestamp).toBeGreaterThan(pausedCall.deadline)
    // The calldata signed when the step paused would now revert on chain.
    const stale = await client
      .simulateContract({
        ...registry(),
        functionName: 'setAgentWallet',
        args: [pausedCall.agentId, pausedCall.newWallet, pausedCall.deadline, pausedCall.signature],
        account: owner.address,
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      )
    expect(revertName(stale)).toBe('DeadlineExpired')

    const { approval, transaction } = await human().approve({ approvalId })
    expect(approval.status).toBe('approved')
    expect(transaction.id).toBe(pausedTx.id)
    await expect.poll(async () => (await registrationOf(id))?.status, { timeout: 20_000 }).toBe('registered')

    const done = (await registrationOf(id))!
    expect(done.error).toBeUndefined()
    expect(done.transactions.setAgentWallet).toBe(pausedTx.id)
    const sent = (await aw.context.storage.get('transactions', pausedTx.id))!
    expect(sent.status).toBe('confirmed')
    expect(sent.hash).toBe(done.hashes.setAgentWallet)
    // Same intent (agent, wallet), a fresh deadline from the latest block, within the registry's cap.
    const sentCall = decodeSetAgentWallet(sent.call.data!)
    expect(sentCall.agentId).toBe(pausedCall.agentId)
    expect(sentCall.newWallet).toBe(agent.address)
    expect(sentCall.deadline).toBeGreaterThan(latest.timestamp)
    expect(sentCall.deadline).toBeLessThanOrEqual(latest.timestamp + maxDeadlineDelay)
    const receipt = await client.getTransactionReceipt({ hash: sent.hash! })
    expect(receipt.status).toBe('success')
    const onChain = await client.getTransaction({ hash: sent.hash! })
    expect(onChain.input).toBe(sent.call.data)

    expect(
      await client.readContract({
        ...registry(),
        functionName: 'getAgentWallet',
        args: [pausedCall.agentId],
      }),
    ).toBe(agent.address)
    expect((await aw.getIdentity({ agentId: done.agentId! })).identity.status).toBe('active')
    // One transaction per approval: register, setAgentURI, setAgentWallet, nothing sent twice.
    const history = await aw.listHistory({ wallet: owner.address })
    expect(history.transactions.map((tx) => tx.status)).toEqual(['confirmed', 'confirmed', 'confirmed'])
    expect(await client.getTransactionCount({ address: owner.address })).toBe(3)
    await expect(human().approve({ approvalId })).rejects.toMatchObject({ code: 'approval_not_pending' })
  })
})

describe('ERC-8004 registration resumed at start', () => {
  const dirs: string[] = []
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })
  const masterKey = '5a'.repeat(32)

  /** A database file of its own, as a server's data dir would hold it. */
  function databaseFile(): string {
    const dir = mkdtempSync(join(tmpdir(), 'aw-identity-'))
    dirs.push(dir)
    return join(dir, 'agentwallet.db')
  }

  /**
   * Process A on a durable SQLite file, without a background tracker (driven by `reconcile` below).
   * Its view of the devnet dies at the first request `dies` matches: from then on nothing answers,
   * as for a process killed mid-request. `kill()` then releases the file as the OS would.
   */
  async function mortalProcess(
    filename: string,
    dies: (method: string, data: string | undefined) => boolean,
  ) {
    const state = { dead: false }
    const provider = {
      request(args: { method: string; params?: unknown }) {
        const [call] = (args.params ?? []) as [{ data?: string; input?: string }?]
        if (!state.dead && dies(args.method, call?.data ?? call?.input)) state.dead = true
        if (state.dead) return new Promise<never>(() => {})
        return devnet.provider.request(args as Parameters<Devnet['provider']['request']>[0])
      },
    }
    const storage = sqliteStorage({ filename })
    const wallet = await agentWalletOn(devnet, {
      storage,
      masterKey,
      chains: { devnet: { provider, chainId: 31337, contracts: devnet.addressBook } },
      track: false,
    })
    /** Runs tracker passes until the process has died. */
    const untilDead = () =>
      expect
        .poll(
          async () => {
            if (!state.dead) await wallet.reconcile()
            return state.dead
          },
          { timeout: 20_000 },
        )
        .toBe(true)
    return { wallet, storage, state, untilDead, kill: () => storage.close() }
  }

  /** Process B: a new AgentWallet on the same file and master key; it reconciles at start. */
  async function restart(filename: string) {
    const storage = sqliteStorage({ filename })
    const wallet = await agentWalletOn(devnet, { storage, masterKey })
    return {
      wallet,
      storage,
      close: async () => {
        await wallet.close()
        await storage.close()
      },
    }
  }

  const registrationOfWallet = async (storage: Storage, walletAddress: string) => {
    const [record] = await storage.query('identities', { where: { walletAddress } })
    return record
  }

  it('a new AgentWallet on the same storage finishes a registration stopped between steps, minting once', async () => {
    const client = publicClientOf(devnet)
    const filename = databaseFile()
    const setAgentURI = toFunctionSelector('function setAgentURI(uint256 agentId, string newURI)')
    // A dies when it estimates setAgentURI: the mint is mined and recorded, step 2 never leaves.
    const a = await mortalProcess(
      filename,
      (method, data) => method === 'eth_estimateGas' && data?.startsWith(setAgentURI) === true,
    )
    const owner = await fundedWallet(a.wallet, devnet, '1', 'restart-owner')
    const { wallet: agent } = await a.wallet.createWallet({ agentName: 'restart-agent' })
    // The request never answers: its process dies first.
    void a.wallet
      .registerIdentity({
        wallet: agent.address,
        owner: owner.address,
        agentName: 'phoenix',
        agentType: 'executor',
        capabilities: ['resume'],
      })
      .catch(() => undefined)
    await a.untilDead()

    const stopped = (await registrationOfWallet(a.storage, agent.address))!
    expect(stopped).toMatchObject({ status: 'registering', step: 'setAgentURI' })
    expect(stopped.agentId).toBeDefined()
    expect(stopped.transactions.register).toBeDefined()
    expect(stopped.transactions.setAgentURI).toBeUndefined()
    const agentId = BigInt(stopped.agentId!)
    // On chain: minted to the owner, no agentURI yet, the owner's one transaction.
    expect(await client.readContract({ ...registry(), functionName: 'ownerOf', args: [agentId] })).toBe(
      owner.address,
    )
    expect(await client.readContract({ ...registry(), functionName: 'tokenURI', args: [agentId] })).toBe('')
    expect(await client.getTransactionCount({ address: owner.address })).toBe(1)
    await a.kill()

    const b = await restart(filename)
    try {
      await expect
        .poll(
          async () =>
            (await b.wallet.getIdentityRegistration({ registrationId: stopped.id })).registration.status,
          { timeout: 30_000 },
        )
        .toBe('registered')
      const done = (await b.storage.get('identities', stopped.id))!
      expect(done.agentId).toBe(stopped.agentId)
      expect(done.transactions.register).toBe(stopped.transactions.register)
      expect(done.error).toBeUndefined()

      expect(await client.readContract({ ...registry(), functionName: 'ownerOf', args: [agentId] })).toBe(
        owner.address,
      )
      const uri = await client.readContract({ ...registry(), functionName: 'tokenURI', args: [agentId] })
      expect(uri).toBe(done.agentURI)
      expect(fromDataUri(uri)).toMatchObject({
        name: 'phoenix',
        capabilities: ['resume'],
        registrations: [{ agentId: stopped.agentId }],
      })
      expect(
        await client.readContract({ ...registry(), functionName: 'getAgentWallet', args: [agentId] }),
      ).toBe(agent.address)
      expect((await b.wallet.getIdentity({ agentId: stopped.agentId! })).identity.status).toBe('active')

      // Nothing sent twice: one mint (A), then setAgentURI and setAgentWallet (B), all confirmed.
      expect(await client.getTransactionCount({ address: owner.address })).toBe(3)
      const history = await b.wallet.listHistory({ wallet: owner.address })
      expect(history.transactions.map((tx) => [tx.meta?.step, tx.status]).reverse()).toEqual([
        ['register', 'confirmed'],
        ['setAgentURI', 'confirmed'],
        ['setAgentWallet', 'confirmed'],
      ])
      const registered = (await b.storage.readEvents('default')).filter(
        (event) =>
          event.type === 'identity.registered' &&
          (event.data as { walletAddress: string }).walletAddress === agent.address,
      )
      expect(registered.map((event) => (event.data as { agentId: string }).agentId)).toEqual([
        stopped.agentId,
      ])
    } finally {
      await b.close()
    }
  })

  it('signs an approved setAgentWallet that a crash left unsigned afresh at restart, after its deadline lapsed', async () => {
    const client = publicClientOf(devnet)
    const filename = databaseFile()
    let armed = false
    // Once armed, A dies when it allocates the nonce of the approved transaction: approved, not signed.
    const a = await mortalProcess(filename, (method) => armed && method === 'eth_getTransactionCount')
    const owner = await fundedWallet(a.wallet, devnet, '1', 'crash-owner')
    const { wallet: agent } = await a.wallet.createWallet({ agentName: 'crash-agent' })
    const request = a.wallet.registerIdentity({
      wallet: agent.address,
      owner: owner.address,
      agentName: 'lazarus',
      agentType: 'executor',
    })
    // Mint and setAgentURI run unpaused; the rule set once setAgentURI was sent pauses setAgentWallet.
    await expect
      .poll(
        async () => {
          await a.wallet.reconcile()
          return (
            (await registrationOfWallet(a.storage, agent.address))?.transactions.setAgentURI !== undefined
          )
        },
        { timeout: 20_000 },
      )
      .toBe(true)
    await a.wallet.updatePolicyRules({
      wallet: owner.address,
      rules: [{ type: 'require_approval', always: true }],
    })
    await a.wallet.reconcile()
    const result = await request
    if (result.status !== 'pending_approval') throw new Error('expected a paused registration')
    expect(result.identity).toMatchObject({ status: 'awaiting_approval', step: 'setAgentWallet' })
    const { transactionId } = (await a.wallet.getApproval({ approvalId: result.approval.id })).approval

    armed = true
    void a.wallet
      .as({ tenantId: 'default', id: 'human', role: 'approver' })
      .approve({ approvalId: result.approval.id })
      .catch(() => undefined)
    await a.untilDead()
    const approved = (await a.storage.get('transactions', transactionId))!
    expect(approved.status).toBe('queued')
    expect(approved.rawTx).toBeUndefined()
    const approvedCall = decodeSetAgentWallet(approved.call.data!)
    expect(await client.getTransactionCount({ address: owner.address })).toBe(2)
    await a.kill()

    // The restart comes later than the deadline the approval-time signature carries.
    const maxDeadlineDelay = await client.readContract({ ...registry(), functionName: 'MAX_DEADLINE_DELAY' })
    await devnet.increaseTime(Number(maxDeadlineDelay) + 60)
    await devnet.mine()
    const latest = await client.getBlock()
    expect(latest.timestamp).toBeGreaterThan(approvedCall.deadline)

    const b = await restart(filename)
    try {
      await expect
        .poll(
          async () =>
            (await b.wallet.getIdentityRegistration({ registrationId: result.identity.id })).registration
              .status,
          {
            timeout: 30_000,
          },
        )
        .toBe('registered')
      const sent = (await b.storage.get('transactions', transactionId))!
      expect(sent.status).toBe('confirmed')
      const sentCall = decodeSetAgentWallet(sent.call.data!)
      expect(sentCall).toMatchObject({ agentId: approvedCall.agentId, newWallet: agent.address })
      expect(sentCall.deadline).toBeGreaterThanOrEqual(latest.timestamp)
      expect(
        await client.readContract({
          ...registry(),
          functionName: 'getAgentWallet',
          args: [approvedCall.agentId],
        }),
      ).toBe(agent.address)
      // The one approved transaction, sent once.
      expect(await client.getTransactionCount({ address: owner.address })).toBe(3)
      expect((await b.wallet.listHistory({ wallet: owner.address })).count).toBe(3)
    } finally {
      await b.close()
    }
  })
})

describe('ERC-8004 on a chain without registries', () => {
  it('answers unsupported_protocol when the address book has no Identity Registry, and tolerates a missing Validation Registry', async () => {
    const { erc8004, ...rest } = devnet.addressBook
    const bare = await agentWalletOn(devnet, {
      chains: {
        devnet: { provider: devnet.provider, chainId: 31337, contracts: { ...rest, erc8004: undefined } },
      },
      track: false,
    })
    const { wallet } = await bare.createWallet({ agentName: 'nobody' })
    await expect(
      bare.registerIdentity({ wallet: wallet.address, agentName: 'n', agentType: 't' }),
    ).rejects.toMatchObject({
      code: 'unsupported_protocol',
    })
    await bare.close()

    const noValidation = await agentWalletOn(devnet, {
      chains: {
        devnet: {
          provider: devnet.provider,
          chainId: 31337,
          contracts: {
            ...rest,
            erc8004: {
              identityRegistry: erc8004.identityRegistry,
              reputationRegistry: erc8004.reputationRegistry,
            },
          },
        },
      },
    })
    const funded = await fundedWallet(noValidation, devnet, '1', 'nv')
    const identity = await registerNow(noValidation, {
      wallet: funded.address,
      agentName: 'nv',
      agentType: 't',
    })
    const { identity: read } = await noValidation.getIdentity({ agentId: identity.agentId })
    expect(read.registries.validation).toBe(null)
    expect(read.status).toBe('active')
    await noValidation.close()
  })
})
