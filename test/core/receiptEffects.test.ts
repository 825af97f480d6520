import type { AgentWallet, TransactionRecord } from '@agentwallet/core'
import { allowanceDrainerAbi, type Devnet } from '@agentwallet/devnet'
import { type Address, encodeFunctionData, erc20Abi, parseUnits } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  agentWalletOn,
  eventsOf,
  freshAddress,
  fundedWallet,
  recordFidelity,
  storedTransaction,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'
import { deployDevnetContract, fundedSigner } from '../helpers/effectsDevnet.js'
import { faults, faultyProvider } from '../helpers/faultyChain.js'

let devnet: Devnet
let aw: AgentWallet
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

let usdc: Address
const usd = (amount: string) => parseUnits(amount, 6)

beforeAll(() => {
  usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
})

async function confirmed(id: string): Promise<TransactionRecord> {
  expect((await aw.waitForTransaction({ transaction: id })).status).toBe('confirmed')
  return storedTransaction(aw, id)
}

describe('the tracker reads what a mined tx did from its receipt', () => {
  it('keeps the receipt effects of a calldata transfer, equal to the prediction, and raises nothing', async () => {
    const differed = eventsOf(aw, 'tx.effects_differed')
    const wallet = await fundedWallet(aw, devnet, '10')
    await devnet.mintToken(usdc, wallet.address, usd('10'))
    const to = freshAddress()
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, usd('3')] })
    const sent = await aw.send({ wallet: wallet.address, to: usdc, value: '0', data })
    const record = await confirmed(sent.transaction.id)
    expect(record.receiptEffects).toMatchObject({
      status: 'known',
      source: 'receipt',
      effects: [
        expect.objectContaining({ kind: 'out', amount: usd('3').toString(), counterparty: to }),
        // The call's value went to the token contract: a receipt shows its top call's value.
      ],
    })
    expect(differed).toHaveLength(0)
  }, 60_000)

  it('raises tx.effects_differed when the chain did more than predicted, and the window counts what it did', async () => {
    // A node that takes the claim's first broadcast and drops it: it is mined when the tracker sends it again.
    const chain = faultyProvider(devnet.provider)
    const held = await agentWalletOn(devnet, {
      chains: {
        devnet: { provider: chain.provider, chainId: devnet.chain.id, contracts: devnet.addressBook },
      },
    })
    try {
      const differed = eventsOf(held, 'tx.effects_differed')
      const wallet = await fundedWallet(held, devnet, '10')
      await devnet.mintToken(usdc, wallet.address, usd('10'))
      const receiver = freshAddress()
      const drainer = await deployDevnetContract(devnet, await fundedSigner(devnet), 'AllowanceDrainer', [
        usdc,
        receiver,
      ])
      const approve = encodeFunctionData({
        abi: erc20Abi,
        functionName: 'approve',
        args: [drainer, usd('100')],
      })
      const granted = await held.send({ wallet: wallet.address, to: usdc, value: '0', data: approve })
      expect((await held.waitForTransaction({ transaction: granted.transaction.id })).status).toBe(
        'confirmed',
      )

      // Predicted while the wallet holds 10; mined after 50 more arrived: `claim()` takes 60.
      chain.setPlan([{ method: 'eth_sendRawTransaction', fault: faults.swallow, times: 1 }])
      const claim = encodeFunctionData({ abi: allowanceDrainerAbi, functionName: 'claim' })
      const sent = await held.send({ wallet: wallet.address, to: drainer, value: '0', data: claim })
      expect((await storedTransaction(held, sent.transaction.id)).effects).toMatchObject({
        effects: [{ kind: 'out', amount: usd('10').toString() }],
      })
      await devnet.mintToken(usdc, wallet.address, usd('50'))
      expect((await held.waitForTransaction({ transaction: sent.transaction.id })).status).toBe('confirmed')
      const record = await storedTransaction(held, sent.transaction.id)
      expect(record.receiptEffects).toMatchObject({
        effects: [{ kind: 'out', amount: usd('60').toString() }],
      })
      await expect.poll(() => differed.length).toBe(1)
      expect(differed[0]!.data).toMatchObject({
        transactionId: sent.transaction.id,
        missing: [{ amount: usd('10').toString(), counterparty: receiver }],
        unexpected: [{ amount: usd('60').toString(), counterparty: receiver }],
      })
      expect((await recordFidelity(held)).differed).toEqual([sent.transaction.id])

      // The window counts what the claim did (60), not what was predicted (10), beside the 100 granted.
      await held.updatePolicyRules({
        wallet: wallet.address,
        rules: [{ type: 'spend_limit', asset: usdc, max: '1000', window: '24h' }],
      })
      const dryRun = await held.evaluatePolicy({
        wallet: wallet.address,
        to: freshAddress(),
        value: '1',
        token: usdc,
      })
      expect(
        dryRun.decision.outcomes.find((outcome) => outcome.type === 'spend_limit')?.details,
      ).toMatchObject({
        spent: '160',
      })
    } finally {
      await held.close()
    }
  }, 60_000)
})
