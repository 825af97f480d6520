import type { AgentWallet } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type Address, encodeFunctionData, erc20Abi, maxUint256, parseUnits } from 'viem'
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

let usdc: Address
const usd = (amount: string) => parseUnits(amount, 6)

beforeAll(() => {
  usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
})

async function approve(wallet: Address, spender: Address, amount: bigint) {
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] })
  const sent = await aw.send({ wallet, to: usdc, value: '0', data })
  expect((await aw.waitForTransaction({ transaction: sent.transaction.id })).status).toBe('confirmed')
}

const allowanceOnChain = (owner: Address, spender: Address) =>
  publicClientOf(devnet).readContract({
    address: usdc,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [owner, spender],
  })

describe('allowances the service granted', () => {
  it('lists the standing ones as the chain reads them, and revokes one through the policy', async () => {
    const { address: wallet } = await fundedWallet(aw, devnet, '10')
    const [bounded, unlimited] = [freshAddress(), freshAddress()]
    await approve(wallet, bounded, usd('100'))
    await approve(wallet, unlimited, maxUint256)

    const { allowances } = await aw.listAllowances({ wallet })
    expect(allowances).toHaveLength(2)
    expect(allowances).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'erc20', spender: bounded, amount: '100', unlimited: false }),
        expect.objectContaining({
          kind: 'erc20',
          spender: unlimited,
          amountRaw: maxUint256.toString(),
          unlimited: true,
        }),
      ]),
    )

    const revoked = await aw.revokeAllowance({ wallet, token: usdc, spender: unlimited })
    expect((await aw.waitForTransaction({ transaction: revoked.transaction.id })).status).toBe('confirmed')
    expect(await allowanceOnChain(wallet, unlimited)).toBe(0n)
    const after = await aw.listAllowances({ wallet })
    expect(after.allowances.map((allowance) => allowance.spender)).toEqual([bounded])
  })

  it('drops an allowance spent to zero on chain from the list', async () => {
    const { address: wallet } = await fundedWallet(aw, devnet, '10')
    const spender = freshAddress()
    await approve(wallet, spender, usd('5'))
    await approve(wallet, spender, 0n)
    expect((await aw.listAllowances({ wallet })).allowances).toEqual([])
  })

  it('revokes through the policy: a rule that pauses every send pauses the revoke too', async () => {
    const { address: wallet } = await fundedWallet(aw, devnet, '10')
    const spender = freshAddress()
    await approve(wallet, spender, usd('5'))
    await aw.updatePolicyRules({ wallet, rules: [{ type: 'require_approval', always: true }] })
    const answer = await aw.revokeAllowance({ wallet, token: usdc, spender })
    expect(answer.status).toBe('pending_approval')
    expect(await allowanceOnChain(wallet, spender)).toBe(usd('5'))
  })

  it("does not let an agent list or revoke another agent's wallet", async () => {
    const owner = aw.as({ tenantId: 'default', id: 'allowance-owner', role: 'agent' })
    const other = aw.as({ tenantId: 'default', id: 'allowance-other', role: 'agent' })
    const { wallet } = await owner.createWallet({ agentName: 'allowance-owner' })
    await expect(other.listAllowances({ wallet: wallet.address })).rejects.toMatchObject({
      code: 'not_found',
    })
    await expect(
      other.revokeAllowance({ wallet: wallet.address, token: usdc, spender: freshAddress() }),
    ).rejects.toMatchObject({ code: 'not_found' })
    expect((await owner.listAllowances({ wallet: wallet.address })).allowances).toEqual([])
  })
})
