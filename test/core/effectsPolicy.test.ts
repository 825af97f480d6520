import { type AgentWallet, defaultTenantRules, type SendAnswer, safeAbi } from '@agentwallet/core'
import { type Devnet, testNftAbi } from '@agentwallet/devnet'
import {
  type Address,
  encodeFunctionData,
  encodePacked,
  erc20Abi,
  type Hex,
  maxUint160,
  maxUint256,
  pad,
  parseAbi,
  parseEther,
  parseUnits,
  size,
  zeroAddress,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  freshAddress,
  fundedWallet,
  publicClientOf,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'
import { deployDevnetContract, fundedSigner } from '../helpers/effectsDevnet.js'

// The bypasses of issue #25, each sent by an agent key through `send` on the devnet: a token moved or
// granted by raw calldata must be counted (or paused) like a `token` send, never judged as a call of 0.

let devnet: Devnet
let aw: AgentWallet
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

const agent = () => aw.as({ tenantId: 'default', id: 'hostile-agent', role: 'agent' })
const usd = (amount: string) => parseUnits(amount, 6)
let usdc: Address
let nft: Address
let drainerOf: (receiver: Address) => Promise<Address>

beforeAll(async () => {
  usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
  const deployer = await fundedSigner(devnet)
  nft = await deployDevnetContract(devnet, deployer, 'TestNft', ['Devnet Apes', 'APE'])
  drainerOf = (receiver) => deployDevnetContract(devnet, deployer, 'AllowanceDrainer', [usdc, receiver])
})

/** A fresh wallet holding `held` USDC, under `rules` of its own. */
async function walletUnder(rules: unknown[], held = '100'): Promise<Address> {
  const { wallet } = await agent().createWallet({ agentName: 'hostile' })
  const address = wallet.address
  await devnet.faucet(address, parseEther('10'))
  await devnet.mintToken(usdc, address, usd(held))
  await aw.updatePolicyRules({ wallet: address, rules })
  return address
}

const erc20Call = (functionName: 'transfer' | 'approve', to: Address, amount: bigint) =>
  encodeFunctionData({ abi: erc20Abi, functionName, args: [to, amount] })
const increaseAllowance = (spender: Address, amount: bigint) =>
  encodeFunctionData({
    abi: parseAbi(['function increaseAllowance(address spender, uint256 addedValue) returns (bool)']),
    functionName: 'increaseAllowance',
    args: [spender, amount],
  })

/** The agent's `data` send, answered or refused: its status, or the refusal's code and deciding rule. */
async function sendData(wallet: Address, to: Address, data: Hex) {
  return agent()
    .send({ wallet, to, value: '0', data })
    .then(
      async (answer: SendAnswer) => {
        if (answer.status !== 'submitted' && answer.status !== 'queued')
          return { status: answer.status, ruleId: ruleOf(answer) }
        const done = await agent().waitForTransaction({ transaction: answer.transaction.id })
        return { status: done.status, ruleId: undefined }
      },
      (error: { code: string; details?: { ruleId?: string } }) => ({
        status: error.code,
        ruleId: error.details?.ruleId,
      }),
    )
}

function ruleOf(answer: SendAnswer): string | undefined {
  return answer.status === 'pending_approval' ? (answer.approval.ruleId ?? undefined) : undefined
}

const usdcBalance = (owner: Address) =>
  publicClientOf(devnet).readContract({
    address: usdc,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [owner],
  })
const allowance = (owner: Address, spender: Address) =>
  publicClientOf(devnet).readContract({
    address: usdc,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [owner, spender],
  })

describe('a transfer written as calldata counts as the token it moves', () => {
  const limits = [
    { name: 'the token address', rule: () => ({ asset: usdc, max: '1' }) },
    { name: 'the symbol', rule: () => ({ asset: 'USDC', max: '1' }) },
    { name: 'US dollars', rule: () => ({ asset: 'usd', max: '1' }) },
  ]
  it.each(limits)(
    'is denied over a USDC spend limit by $name, and goes through within it',
    async ({ rule }) => {
      const wallet = await walletUnder([{ id: 'limit', type: 'spend_limit', window: '24h', ...rule() }])
      const attacker = freshAddress()
      expect(await sendData(wallet, usdc, erc20Call('transfer', attacker, usd('5')))).toEqual({
        status: 'policy_blocked',
        ruleId: 'limit',
      })
      expect(await usdcBalance(attacker)).toBe(0n)
      const within = await sendData(wallet, usdc, erc20Call('transfer', attacker, usd('0.6')))
      expect(within.status).toBe('confirmed')
      expect(await usdcBalance(attacker)).toBe(usd('0.6'))
      // The window counts the calldata transfer by its effect: 0.6 + 0.5 is over the limit of 1.
      expect(await sendData(wallet, usdc, erc20Call('transfer', attacker, usd('0.5')))).toEqual({
        status: 'policy_blocked',
        ruleId: 'limit',
      })
    },
  )

  it('the dry run answers the effect and which rule counted it', async () => {
    const wallet = await walletUnder([
      { id: 'limit', type: 'spend_limit', asset: 'USDC', max: '1', window: '24h' },
    ])
    const attacker = freshAddress()
    const { decision, effects } = await agent().evaluatePolicy({
      wallet,
      to: usdc,
      value: '0',
      data: erc20Call('transfer', attacker, usd('5')),
    })
    expect(effects).toMatchObject({
      status: 'known',
      effects: [
        { kind: 'out', asset: { address: usdc }, amount: usd('5').toString(), counterparty: attacker },
      ],
    })
    expect(decision).toMatchObject({
      decision: 'deny',
      ruleId: 'limit',
      details: { requested: '5', counted: [{ effect: 0, kind: 'out', counterparty: attacker, amount: '5' }] },
    })
  })
})

describe('allowances and operator grants count as outflows', () => {
  it('increaseAllowance is counted as the amount it adds (on DAI: the devnet USDC, a FiatToken, has none)', async () => {
    const dai = devnet.addressBook.tokens.find((token) => token.symbol === 'DAI')!.address
    const wallet = await walletUnder([
      { id: 'limit', type: 'spend_limit', asset: dai, max: '1', window: '24h' },
    ])
    await devnet.mintToken(dai, wallet, parseEther('100'))
    const spender = freshAddress()
    const daiAllowance = () =>
      publicClientOf(devnet).readContract({
        address: dai,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [wallet, spender],
      })
    expect(await sendData(wallet, dai, increaseAllowance(spender, parseEther('5')))).toEqual({
      status: 'policy_blocked',
      ruleId: 'limit',
    })
    expect(await daiAllowance()).toBe(0n)
    expect((await sendData(wallet, dai, increaseAllowance(spender, parseEther('1')))).status).toBe(
      'confirmed',
    )
    expect(await daiAllowance()).toBe(parseEther('1'))
    // The limit is spent by the allowance: a second one of any size is over it.
    expect(await sendData(wallet, dai, increaseAllowance(spender, 1n))).toEqual({
      status: 'policy_blocked',
      ruleId: 'limit',
    })
  })

  it('a call to an unknown contract that pulls tokens through an earlier allowance is counted', async () => {
    const wallet = await walletUnder([])
    const receiver = freshAddress()
    const drainer = await drainerOf(receiver)
    expect((await sendData(wallet, usdc, erc20Call('approve', drainer, maxUint256))).status).toBe('confirmed')
    await aw.updatePolicyRules({
      wallet,
      rules: [{ id: 'limit', type: 'spend_limit', asset: 'USDC', max: '1', window: '24h' }],
    })
    const claim = encodeFunctionData({ abi: parseAbi(['function claim()']), functionName: 'claim' })
    expect(await sendData(wallet, drainer, claim)).toEqual({ status: 'policy_blocked', ruleId: 'limit' })
    expect(await usdcBalance(receiver)).toBe(0n)
    // The same call pulling what the limit allows goes through: a balance of 0.5 USDC is all it can take.
    const small = await walletUnder([], '0.5')
    const smallDrainer = await drainerOf(receiver)
    expect((await sendData(small, usdc, erc20Call('approve', smallDrainer, maxUint256))).status).toBe(
      'confirmed',
    )
    await aw.updatePolicyRules({
      wallet: small,
      rules: [{ id: 'limit', type: 'spend_limit', asset: 'USDC', max: '1', window: '24h' }],
    })
    expect((await sendData(small, smallDrainer, claim)).status).toBe('confirmed')
    expect(await usdcBalance(receiver)).toBe(usd('0.5'))
  })
})

describe('the default rules stop the one-signature drains without configuration', () => {
  beforeAll(async () => {
    await aw.updatePolicyRules({ rules: [...defaultTenantRules] })
  })
  afterAll(async () => {
    await aw.updatePolicyRules({ rules: [] })
  })

  it('an unlimited approve to an unknown spender is refused; a bounded one waits for a human', async () => {
    const wallet = await walletUnder([])
    const attacker = freshAddress()
    expect(await sendData(wallet, usdc, erc20Call('approve', attacker, maxUint256))).toEqual({
      status: 'policy_blocked',
      ruleId: 'default-usd-24h',
    })
    expect(await sendData(wallet, usdc, erc20Call('approve', attacker, usd('5')))).toEqual({
      status: 'pending_approval',
      ruleId: 'default-approval-grants',
    })
    expect(await allowance(wallet, attacker)).toBe(0n)
  })

  it('an approve to the address book’s router (a swap’s allowance) goes through', async () => {
    const wallet = await walletUnder([])
    const router = devnet.addressBook.uniswapV2[0]!.router
    expect((await sendData(wallet, usdc, erc20Call('approve', router, maxUint256))).status).toBe('confirmed')
    expect(await allowance(wallet, router)).toBe(maxUint256)
  })

  it('setApprovalForAll on an NFT collection waits for a human', async () => {
    const wallet = await walletUnder([])
    const data = encodeFunctionData({
      abi: testNftAbi,
      functionName: 'setApprovalForAll',
      args: [freshAddress(), true],
    })
    expect(await sendData(wallet, nft, data)).toEqual({
      status: 'pending_approval',
      ruleId: 'default-approval-grants',
    })
  })

  it('a Permit2 approve of USDC is refused unlimited, and waits for a human when bounded', async () => {
    const wallet = await walletUnder([])
    const permit2 = devnet.addressBook.permit2 ?? '0x000000000022D473030F116dDEE9F6B43aC78BA3'
    const permit2Approve = (amount: bigint) =>
      encodeFunctionData({
        abi: parseAbi([
          'function approve(address token, address spender, uint160 amount, uint48 expiration)',
        ]),
        functionName: 'approve',
        args: [usdc, freshAddress(), amount, 2 ** 40],
      })
    expect(await sendData(wallet, permit2, permit2Approve(maxUint160))).toEqual({
      status: 'policy_blocked',
      ruleId: 'default-usd-24h',
    })
    expect(await sendData(wallet, permit2, permit2Approve(usd('5')))).toEqual({
      status: 'pending_approval',
      ruleId: 'default-approval-grants',
    })
  })
})

describe('a transfer inside a Safe MultiSend, sent as a raw execTransaction', () => {
  it('counts what the Safe pays against the executing wallet’s limit', async () => {
    const wallet = await walletUnder([
      { id: 'limit', type: 'spend_limit', asset: 'USDC', max: '1', window: '24h' },
    ])
    const deployed = await agent().deploySafe({ owners: [wallet], threshold: 1, wallet })
    if (deployed.status !== 'deployed') throw new Error('expected the Safe to be deployed')
    const safe = deployed.address
    await devnet.mintToken(usdc, safe, usd('100'))
    const attacker = freshAddress()
    const execute = (amount: bigint) => execTransaction(wallet, multiSend(attacker, amount))
    expect(await sendData(wallet, safe, execute(usd('5')))).toEqual({
      status: 'policy_blocked',
      ruleId: 'limit',
    })
    expect(await usdcBalance(attacker)).toBe(0n)
    expect((await sendData(wallet, safe, execute(usd('0.5')))).status).toBe('confirmed')
    expect(await usdcBalance(attacker)).toBe(usd('0.5'))
  })
})

/** A MultiSendCallOnly batch of one USDC transfer, delegatecalled by the Safe. */
function multiSend(to: Address, amount: bigint): { to: Address; data: Hex } {
  const call = erc20Call('transfer', to, amount)
  const packed = encodePacked(
    ['uint8', 'address', 'uint256', 'uint256', 'bytes'],
    [0, usdc, 0n, BigInt(size(call)), call],
  )
  return {
    to: devnet.addressBook.safe.multiSendCallOnly!,
    data: encodeFunctionData({
      abi: parseAbi(['function multiSend(bytes transactions) payable']),
      functionName: 'multiSend',
      args: [packed],
    }),
  }
}

/** execTransaction of a delegatecall to `batch`, signed by the sending owner itself (a pre-validated signature). */
function execTransaction(owner: Address, batch: { to: Address; data: Hex }): Hex {
  const signature = `${pad(owner).slice(2)}${pad('0x0').slice(2)}01`
  return encodeFunctionData({
    abi: safeAbi,
    functionName: 'execTransaction',
    args: [batch.to, 0n, batch.data, 1, 0n, 0n, 0n, zeroAddress, zeroAddress, `0x${signature}`],
  })
}
