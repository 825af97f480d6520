import type { AgentWallet } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import {
  type Address,
  encodeFunctionData,
  encodePacked,
  erc20Abi,
  type Hex,
  parseAbi,
  parseUnits,
  size,
} from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  freshAddress,
  fundedWallet,
  publicClientOf,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
let aw: AgentWallet
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

let owner1: Address
let owner2: Address
let safe: Address
let usdc: Address
const usd = (amount: string) => parseUnits(amount, 6)

beforeAll(async () => {
  owner1 = (await fundedWallet(aw, devnet, '10', 'batch-owner-1')).address
  owner2 = (await fundedWallet(aw, devnet, '10', 'batch-owner-2')).address
  const deployed = await aw.deploySafe({ owners: [owner1, owner2], threshold: 2, wallet: owner1 })
  if (deployed.status !== 'deployed') throw new Error('expected the Safe to be deployed')
  safe = deployed.address
  usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
  await devnet.mintToken(usdc, safe, usd('1000'))
})

type Call = { operation?: 0 | 1; to: Address; value?: bigint; data: Hex }

/** `multiSend(bytes)` over calls packed as Safe's MultiSend reads them. */
function multiSend(calls: Call[]): Hex {
  const packed = calls.map(({ operation = 0, to, value = 0n, data }) =>
    encodePacked(
      ['uint8', 'address', 'uint256', 'uint256', 'bytes'],
      [operation, to, value, BigInt(size(data)), data],
    ),
  )
  return encodeFunctionData({
    abi: parseAbi(['function multiSend(bytes transactions) payable']),
    functionName: 'multiSend',
    args: [packed.length ? (`0x${packed.map((part) => part.slice(2)).join('')}` as Hex) : '0x'],
  })
}

const transfer = (to: Address, amount: bigint): Call => ({
  to: usdc,
  data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }),
})

const usdcBalance = (owner: Address) =>
  publicClientOf(devnet).readContract({
    address: usdc,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [owner],
  })

/** Proposes a delegatecall of `data` to the batch contract from owner1; owner2's confirmation executes. */
async function proposeBatch(data: Hex, batcher = devnet.addressBook.safe.multiSendCallOnly) {
  return aw.proposeSafeTransaction({ safe, wallet: owner1, to: batcher, value: '0', data, operation: 1 })
}

describe('a MultiSend batch out of a Safe', () => {
  it('is judged as the sum it pays one recipient in one asset: blocked over the limit, executed under it', async () => {
    await aw.updatePolicyRules({
      wallet: owner2,
      rules: [{ id: 'usdc-day', type: 'spend_limit', asset: 'USDC', max: '80', window: '24h' }],
    })
    const recipient = freshAddress()
    const batch = multiSend([transfer(recipient, usd('40')), transfer(recipient, usd('50'))])
    const proposed = await proposeBatch(batch)
    expect(proposed.status).toBe('pending')
    const blocked = await aw
      .confirmSafeTransaction({ safe, safeTxHash: proposed.proposal.safeTxHash, wallet: owner2 })
      .then(
        () => undefined,
        (error: { code: string; details: Record<string, unknown> }) => error,
      )
    expect(blocked).toMatchObject({
      code: 'policy_blocked',
      details: { ruleId: 'usdc-day', requested: '90', limit: '80' },
    })
    expect(await usdcBalance(recipient)).toBe(0n)

    await aw.updatePolicyRules({
      wallet: owner2,
      rules: [{ id: 'usdc-day', type: 'spend_limit', asset: 'USDC', max: '100', window: '24h' }],
    })
    const executed = await aw.confirmSafeTransaction({
      safe,
      safeTxHash: proposed.proposal.safeTxHash,
      wallet: owner2,
    })
    expect(executed.status).toBe('executed')
    expect(executed.transaction).toMatchObject({
      to: recipient,
      via: safe,
      asset: { address: usdc, symbol: 'USDC' },
      amountRaw: usd('90').toString(),
    })
    expect(await usdcBalance(recipient)).toBe(usd('90'))
  })

  it('is refused at proposal when it pays several recipients, or holds a delegatecall', async () => {
    const pendingBefore = (await aw.getSafe({ safe })).safe.pendingProposals.length
    await expect(
      proposeBatch(multiSend([transfer(freshAddress(), usd('1')), transfer(freshAddress(), usd('1'))])),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      message: expect.stringMatching(/several recipients/),
    })
    await expect(
      proposeBatch(multiSend([{ operation: 1, to: usdc, data: '0x' }]), devnet.addressBook.safe.multiSend),
    ).rejects.toMatchObject({ code: 'validation_failed', message: expect.stringMatching(/delegatecall/) })
    expect((await aw.getSafe({ safe })).safe.pendingProposals).toHaveLength(pendingBefore)
  })

  it('that moves nothing is a call to the Safe, for nothing', async () => {
    await aw.updatePolicyRules({
      wallet: owner2,
      rules: [{ id: 'usdc-zero', type: 'max_per_tx', asset: 'USDC', max: '0' }],
    })
    const read = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [safe] })
    const proposed = await proposeBatch(
      multiSend([
        { to: usdc, data: read },
        { to: usdc, data: read },
      ]),
    )
    const executed = await aw.confirmSafeTransaction({
      safe,
      safeTxHash: proposed.proposal.safeTxHash,
      wallet: owner2,
    })
    expect(executed.status).toBe('executed')
    expect(executed.transaction).toMatchObject({ to: safe, amount: '0', asset: { address: 'native' } })
  })
})
