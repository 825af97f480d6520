import {
  type AgentWallet,
  type Bundler,
  memoryStorage,
  relayerAccount,
  relayerBundler,
  type SignedUserOperation,
} from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type Address, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentWalletOn, freshAddress, publicClientOf, startDevnet } from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
const closers: AgentWallet[] = []

beforeAll(async () => {
  devnet = await startDevnet()
})
afterAll(async () => {
  for (const aw of closers) await aw.close()
  await devnet?.close()
})

/**
 * A process whose bundler hangs forever on the first session-account op it is handed: `before` the
 * relayer takes it (the process dies between signing and submission) or `after` (between submission
 * and receipt). `reached` settles at that moment, so the test snapshots storage then.
 */
async function dyingProcess(masterKey: string, when: 'before' | 'after') {
  const storage = memoryStorage()
  let reach: () => void = () => {}
  const reached = new Promise<void>((resolve) => {
    reach = resolve
  })
  let sessionKey: Address | undefined
  let dead = false
  let aw: AgentWallet | undefined
  const dying = (target: { tenantId: string; chain: string }): Bundler => {
    const real = relayerBundler(aw!.context, target)
    return {
      ...real,
      async sendUserOperation(op: SignedUserOperation, entryPoint: Address) {
        if (dead || op.sender !== sessionKey) return real.sendUserOperation(op, entryPoint)
        dead = true
        if (when === 'after') await real.sendUserOperation(op, entryPoint)
        reach()
        return new Promise<never>(() => {})
      },
    }
  }
  aw = await agentWalletOn(devnet, { storage, masterKey, bundler: dying, track: false })
  const relayer = await relayerAccount(aw.context, 'default')
  await devnet.faucet(relayer.address, parseEther('10'))
  const { wallet } = await aw.createWallet({ agentName: `crash-${when}`, kind: 'smart' })
  sessionKey = wallet.smart!.sessionKey
  await devnet.faucet(wallet.address, parseEther('2'))
  return { aw, storage, wallet, reached }
}

describe('a smart wallet’s send across a crash', () => {
  it.each([
    ['between signing the op and handing it to the relayer', 'before' as const],
    ['between the relayer taking the op and its receipt', 'after' as const],
  ])('dies %s: on restart the op is included once, the intent confirmed once', async (_, when) => {
    const masterKey = (when === 'before' ? '33' : '44').repeat(32)
    const { aw, storage, wallet, reached } = await dyingProcess(masterKey, when)
    const recipient = freshAddress()
    void aw.send({ wallet: wallet.address, to: recipient, value: '0.3' }).catch(() => undefined)
    await reached

    // What a durable store holds at the moment of death: the intent with its signed op, not submitted.
    const afterCrash = memoryStorage({ snapshot: storage.snapshot() })
    const [intent] = await afterCrash.query('transactions', { where: { walletId: wallet.id } })
    expect(intent).toMatchObject({ status: 'queued', carriedBy: 'user_operation' })
    const signedBefore = intent!.userOperation!
    expect(signedBefore.hash).toMatch(/^0x/)

    const restarted = await agentWalletOn(devnet, { storage: afterCrash, masterKey })
    closers.push(restarted)
    const done = await restarted.waitForTransaction({ transaction: intent!.id })

    expect(done.transaction.status).toBe('confirmed')
    const final = await restarted.context.storage.get('transactions', intent!.id)
    // The op signed before the crash is the one included: never signed again.
    expect(final?.userOperation?.hash).toBe(signedBefore.hash)
    expect(await publicClientOf(devnet).getBalance({ address: recipient })).toBe(parseEther('0.3'))
    const carriers = (await restarted.context.storage.query('transactions', {})).filter(
      (record) => record.meta?.userOpHash === signedBefore.hash,
    )
    expect(carriers).toHaveLength(1)
    expect(
      (await restarted.context.storage.query('transactions', { where: { status: 'confirmed' } })).filter(
        (record) => record.id === intent!.id,
      ),
    ).toHaveLength(1)
  })
})
