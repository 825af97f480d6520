import {
  buildUserOperation,
  delegationHash,
  delegationManagerAbi,
  dummySignature,
  gasDepositCall,
  permissionsFromRules,
  type RulesEngineRule,
  readAllowancesLeft,
  redeemCalldata,
  revokeCall,
  revokeSessionCalls,
  type SessionDelegations,
  type SessionPermissions,
  smartWalletDeployment,
  validateRules,
  walletCalldata,
} from '@agentwallet/core'
import { createDevnet, type Devnet, uniswapV2RouterAbi } from '@agentwallet/devnet'
import {
  type Address,
  encodeErrorResult,
  encodeFunctionData,
  erc20Abi,
  type LocalAccount,
  parseEther,
  parseUnits,
} from 'viem'
import { entryPoint08Abi, toPackedUserOperation } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chainHarness, fees, gas } from './chainHarness.js'

const day = 86_400
const disabled = encodeErrorResult({ abi: delegationManagerAbi, errorName: 'CannotUseADisabledDelegation' })
const stranger = () => privateKeyToAccount(generatePrivateKey()).address

describe('session keys on chain (EntryPoint v0.8, Delegation Framework), no server', () => {
  let devnet: Devnet
  let h: ReturnType<typeof chainHarness>
  let usdc: Address
  const owner = privateKeyToAccount(generatePrivateKey())
  let wallet: Address
  let session: LocalAccount
  const recipient = stranger()

  beforeAll(async () => {
    devnet = await createDevnet()
    h = chainHarness(devnet)
    usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
    // The smart wallet: a HybridDeleGator owned by `owner`, funded before it exists (counterfactually).
    const deployment = await smartWalletDeployment(h.contracts, { owner: owner.address })
    wallet = deployment.address
    await devnet.faucet(wallet, parseEther('10'))
    await devnet.mintToken('USDC', wallet, parseUnits('1000', 6))
    session = await h.newSessionAccount()
    // The owner's first op deploys the wallet (factory data) and funds the session account's
    // EntryPoint deposit, from which the session's ops pay their gas. The wallet pays this op itself.
    const fund = walletCalldata([gasDepositCall(h.contracts.entryPoint, session.address, parseEther('0.5'))])
    const outcome = await h.sendOp(owner, 'HybridDeleGator', wallet, fund, deployment)
    expect(outcome).toEqual({ success: true, reason: undefined })
  })
  afterAll(() => devnet.close())

  const permissions = (): SessionPermissions => ({
    expiresAt: Math.floor(Date.now() / 1000) + 30 * day,
    targets: [recipient, usdc],
    native: { perCall: parseEther('1'), allowance: { amount: parseEther('1.5'), period: day } },
    tokens: [{ token: usdc, allowance: { amount: parseUnits('100', 6), period: day } }],
  })

  it('a smart wallet from the factory executes a call through the session key’s user operation', async () => {
    expect(await h.publicClient.getCode({ address: wallet })).toMatch(/^0x.+/)
    expect(await h.depositOf(session.address)).toBe(parseEther('0.5'))
    const delegations = await h.issue(owner, wallet, session.address, permissions())
    const before = await h.publicClient.getBalance({ address: wallet })

    const outcome = await h.redeemByOp(session, delegations, [{ to: recipient, value: parseEther('0.1') }])

    expect(outcome).toEqual({ success: true, reason: undefined })
    expect(await h.publicClient.getBalance({ address: recipient })).toBe(parseEther('0.1'))
    // The wallet is the `from` of the effect; gas came from the session account's deposit.
    expect(await h.publicClient.getBalance({ address: wallet })).toBe(before - parseEther('0.1'))
    expect(await h.depositOf(session.address)).toBeLessThan(parseEther('0.5'))
  })

  it('an op still carrying the dummy signature fails validation as a signature error (AA24), not a revert', async () => {
    const delegations = await h.issue(owner, wallet, session.address, permissions(), 2n)
    const op = buildUserOperation({
      sender: session.address,
      nonce: await h.nonceOf(session.address),
      callData: redeemCalldata(delegations, [{ to: recipient, value: 1n }]),
      gas,
      fees,
    })
    expect(op.signature).toBe(dummySignature)
    const call = h.publicClient.simulateContract({
      address: h.contracts.entryPoint,
      abi: entryPoint08Abi,
      functionName: 'handleOps',
      args: [[toPackedUserOperation(op)], h.relayer.account.address],
      account: h.relayer.account,
    })
    await expect(call).rejects.toMatchObject({
      cause: { data: { errorName: 'FailedOp', args: [0n, 'AA24 signature error'] } },
    })
  })

  describe('the session key alone, against the node, cannot exceed its on-chain limits', () => {
    let delegations: SessionDelegations
    beforeAll(async () => {
      delegations = await h.issue(owner, wallet, session.address, permissions(), 1n)
    })

    it('per-call cap: 1.01 ETH is refused by op and by transaction; 1 ETH passes', async () => {
      const over = [{ to: recipient, value: parseEther('1.01') }]
      expect(await h.redeemByOp(session, delegations, over)).toEqual({
        success: false,
        reason: 'ValueLteEnforcer:value-too-high',
      })
      expect(await h.redeemByTx(session, delegations, over)).toEqual({
        success: false,
        reason: 'ValueLteEnforcer:value-too-high',
      })
      expect(await h.redeemByOp(session, delegations, [{ to: recipient, value: parseEther('1') }])).toEqual({
        success: true,
        reason: undefined,
      })
    })

    it('periodic allowance: after 1 ETH of 1.5 per day, 0.6 is refused and 0.5 passes', async () => {
      const over = [{ to: recipient, value: parseEther('0.6') }]
      const exceeded = {
        success: false,
        reason: 'NativeTokenPeriodTransferEnforcer:transfer-amount-exceeded',
      }
      expect(await h.redeemByOp(session, delegations, over)).toEqual(exceeded)
      expect(await h.redeemByTx(session, delegations, over)).toEqual(exceeded)
      expect(await readAllowancesLeft(h.publicClient, h.contracts, delegations)).toEqual({
        native: parseEther('0.5'),
        tokens: [{ token: usdc, available: parseUnits('100', 6) }],
      })
      const last = [{ to: recipient, value: parseEther('0.5') }]
      expect(await h.redeemByTx(session, delegations, last)).toEqual({ success: true, reason: undefined })
      expect((await readAllowancesLeft(h.publicClient, h.contracts, delegations)).native).toBe(0n)
    })

    it('ERC-20 allowance: 60 then 50 USDC of 100 per day — the second is refused, 40 passes', async () => {
      const transfer = (amount: string) => ({
        to: usdc,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'transfer',
          args: [recipient, parseUnits(amount, 6)],
        }),
      })
      expect(await h.redeemByOp(session, delegations, [transfer('60')])).toEqual({
        success: true,
        reason: undefined,
      })
      const exceeded = { success: false, reason: 'ERC20PeriodTransferEnforcer:transfer-amount-exceeded' }
      expect(await h.redeemByOp(session, delegations, [transfer('50')])).toEqual(exceeded)
      expect(await h.redeemByTx(session, delegations, [transfer('50')])).toEqual(exceeded)
      // A batch: both calls in one op, each judged by its delegation's caveats.
      expect(
        await h.redeemByOp(session, delegations, [transfer('40'), { to: recipient, value: 0n, data: '0x' }]),
      ).toEqual({ success: true, reason: undefined })
      expect(
        await h.publicClient.readContract({
          address: usdc,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [recipient],
        }),
      ).toBe(parseUnits('100', 6))
    })

    it('a metered token cannot move by any other call: an approve to a stranger is refused', async () => {
      const approve = {
        to: usdc,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'approve',
          args: [stranger(), parseUnits('1000', 6)],
        }),
      }
      const refused = { success: false, reason: 'AllowedTargetsEnforcer:target-address-not-allowed' }
      expect(await h.redeemByOp(session, delegations, [approve])).toEqual(refused)
      expect(await h.redeemByTx(session, delegations, [approve])).toEqual(refused)
    })

    it('a target outside the list is refused; one on it passes', async () => {
      const refused = { success: false, reason: 'AllowedTargetsEnforcer:target-address-not-allowed' }
      expect(await h.redeemByOp(session, delegations, [{ to: stranger(), value: 1n }])).toEqual(refused)
      expect(await h.redeemByTx(session, delegations, [{ to: stranger(), value: 1n }])).toEqual(refused)
      expect(await h.redeemByOp(session, delegations, [{ to: recipient, value: 0n }])).toEqual({
        success: true,
        reason: undefined,
      })
    })

    it('a selector outside the list is refused; one on it passes', async () => {
      const scoped = await h.issue(owner, wallet, session.address, {
        expiresAt: Math.floor(Date.now() / 1000) + 30 * day,
        targets: [usdc],
        selectors: ['0x095ea7b3'], // approve(address,uint256)
      })
      const call = (functionName: 'approve' | 'transfer') => ({
        to: usdc,
        data: encodeFunctionData({ abi: erc20Abi, functionName, args: [recipient, 1n] }),
      })
      const refused = { success: false, reason: 'AllowedMethodsEnforcer:method-not-allowed' }
      expect(await h.redeemByOp(session, scoped, [call('transfer')])).toEqual(refused)
      expect(await h.redeemByTx(session, scoped, [call('transfer')])).toEqual(refused)
      expect(await h.redeemByOp(session, scoped, [call('approve')])).toEqual({
        success: true,
        reason: undefined,
      })
    })

    it('after its expiry every call is refused, the smallest included', async () => {
      const shortLived = await h.issue(owner, wallet, session.address, {
        expiresAt: Number((await h.publicClient.getBlock()).timestamp) + 600,
      })
      const tiny = [{ to: recipient, value: 1n }]
      expect(await h.redeemByOp(session, shortLived, tiny)).toEqual({ success: true, reason: undefined })
      await devnet.increaseTime(601)
      const expired = { success: false, reason: 'TimestampEnforcer:expired-delegation' }
      expect(await h.redeemByOp(session, shortLived, tiny)).toEqual(expired)
      expect(await h.redeemByTx(session, shortLived, tiny)).toEqual(expired)
    })
  })

  it('rules compiled by permissionsFromRules hold on chain; what they cannot express is listed', async () => {
    const input = [
      { id: 'cap', type: 'max_per_tx', asset: 'native', max: '0.2' },
      { id: 'budget', type: 'spend_limit', asset: 'USDC', max: '25', window: '24h' },
      { id: 'human', type: 'require_approval', always: true },
      // Together these compile to targets, which make the USDC budget airtight (no approve escapes it).
      { id: 'who', type: 'allow_recipients', addresses: [recipient] },
      {
        id: 'what',
        type: 'allow_contracts',
        contracts: [{ address: devnet.addressBook.uniswapV2[0]!.router }],
      },
    ]
    // validateRules is the engine's own validation (what a stored policy went through).
    const rules = validateRules(input) as RulesEngineRule[]
    const { permissions, offChainOnly } = permissionsFromRules(rules, {
      expiresAt: Math.floor(Date.now() / 1000) + day,
      tokens: devnet.addressBook.tokens,
    })
    expect(offChainOnly).toEqual([expect.objectContaining({ ruleId: 'human' })])
    expect(permissions.targets).toContain(recipient)
    const delegations = await h.issue(owner, wallet, session.address, permissions, 3n)
    const transfer = (amount: string) => ({
      to: usdc,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'transfer',
        args: [recipient, parseUnits(amount, 6)],
      }),
    })

    expect(await h.redeemByOp(session, delegations, [{ to: recipient, value: parseEther('0.25') }])).toEqual({
      success: false,
      reason: 'ValueLteEnforcer:value-too-high',
    })
    expect(await h.redeemByOp(session, delegations, [transfer('30')])).toEqual({
      success: false,
      reason: 'ERC20PeriodTransferEnforcer:transfer-amount-exceeded',
    })
    expect(await h.redeemByOp(session, delegations, [{ to: stranger(), value: 1n }])).toEqual({
      success: false,
      reason: 'AllowedTargetsEnforcer:target-address-not-allowed',
    })
    expect(
      await h.redeemByOp(session, delegations, [{ to: recipient, value: parseEther('0.2') }, transfer('25')]),
    ).toEqual({ success: true, reason: undefined })
  })

  it('approve and swap go in one op; a token metered on chain cannot be swapped by the session key', async () => {
    const router = devnet.addressBook.uniswapV2[0]!.router
    const dai = devnet.addressBook.tokens.find((token) => token.symbol === 'DAI')!.address
    await devnet.mintToken('DAI', wallet, parseUnits('300', 18))
    const deadline = BigInt(Math.floor(Date.now() / 1000) + 30 * day)
    const approveAndSwap = (token: Address, amount: bigint) => [
      {
        to: token,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, amount] }),
      },
      {
        to: router,
        data: encodeFunctionData({
          abi: uniswapV2RouterAbi,
          functionName: 'swapExactTokensForETH',
          args: [amount, 0n, [token, devnet.addressBook.weth], wallet, deadline],
        }),
      },
    ]
    const delegations = await h.issue(
      owner,
      wallet,
      session.address,
      {
        expiresAt: Math.floor(Date.now() / 1000) + day,
        native: { perCall: parseEther('1') },
        tokens: [{ token: usdc, allowance: { amount: parseUnits('100', 6), period: day } }],
      },
      4n,
    )
    const balanceOf = (token: Address) =>
      h.publicClient.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [wallet],
      })
    const [daiBefore, ethBefore] = [
      await balanceOf(dai),
      await h.publicClient.getBalance({ address: wallet }),
    ]

    expect(await h.redeemByOp(session, delegations, approveAndSwap(dai, parseUnits('300', 18)))).toEqual({
      success: true,
      reason: undefined,
    })
    expect(await balanceOf(dai)).toBe(daiBefore - parseUnits('300', 18))
    expect(await h.publicClient.getBalance({ address: wallet })).toBeGreaterThan(ethBefore)

    // USDC has an on-chain allowance: its swap would move it past the meter, so the guard refuses it.
    expect(await h.redeemByOp(session, delegations, approveAndSwap(usdc, parseUnits('10', 6)))).toEqual({
      success: false,
      reason: 'ERC20BalanceChangeEnforcer:exceeded-balance-decrease',
    })
  })

  describe('the owner key revokes and re-issues', () => {
    it('disableDelegation by the owner’s op: the session key’s redeem fails from then on', async () => {
      const delegations = await h.issue(owner, wallet, session.address, permissions(), 10n)
      const tiny = [{ to: recipient, value: 1n }]
      expect(await h.redeemByOp(session, delegations, tiny)).toEqual({ success: true, reason: undefined })

      const revoke = walletCalldata([revokeCall(delegations.calls!)])
      expect(await h.sendOp(owner, 'HybridDeleGator', wallet, revoke)).toEqual({
        success: true,
        reason: undefined,
      })

      expect(
        await h.publicClient.readContract({
          address: h.contracts.delegationManager,
          abi: delegationManagerAbi,
          functionName: 'disabledDelegations',
          args: [delegationHash(delegations.calls!)],
        }),
      ).toBe(true)
      // Core's hash of the delegation is the DelegationManager's.
      expect(
        await h.publicClient.readContract({
          address: h.contracts.delegationManager,
          abi: delegationManagerAbi,
          functionName: 'getDelegationHash',
          args: [delegations.calls!],
        }),
      ).toBe(delegationHash(delegations.calls!))
      expect(await h.redeemByOp(session, delegations, tiny)).toEqual({ success: false, reason: disabled })
      expect(await h.redeemByTx(session, delegations, tiny)).toEqual({ success: false, reason: disabled })
    })

    it('the session key cannot revoke or widen its own permissions', async () => {
      const delegations = await h.issue(owner, wallet, session.address, permissions(), 11n)
      // Redeeming `disableDelegation` on the wallet: the wallet is not among the targets.
      const outcome = await h.redeemByOp(session, delegations, [revokeCall(delegations.calls!)])
      expect(outcome).toEqual({ success: false, reason: 'AllowedTargetsEnforcer:target-address-not-allowed' })
      // A delegation the session signs itself (not the owner) is refused by the wallet's ERC-1271 check.
      const forged = {
        ...delegations,
        calls: { ...delegations.calls!, signature: await session.signMessage({ message: 'x' }) },
      }
      const forgedOutcome = await h.redeemByTx(session, forged, [{ to: recipient, value: 1n }])
      expect(forgedOutcome.success).toBe(false)
    })

    it('a new delegation with other limits takes effect; the old one is revoked beside it', async () => {
      const old = await h.issue(owner, wallet, session.address, permissions(), 20n)
      const wider = await h.issue(
        owner,
        wallet,
        session.address,
        {
          ...permissions(),
          native: { perCall: parseEther('2'), allowance: { amount: parseEther('3'), period: day } },
        },
        21n,
      )
      const send = [{ to: recipient, value: parseEther('1.5') }]
      expect(await h.redeemByOp(session, old, send)).toEqual({
        success: false,
        reason: 'ValueLteEnforcer:value-too-high',
      })
      expect(await h.redeemByOp(session, wider, send)).toEqual({ success: true, reason: undefined })

      const revoke = walletCalldata(revokeSessionCalls(old))
      expect(await h.sendOp(owner, 'HybridDeleGator', wallet, revoke)).toEqual({
        success: true,
        reason: undefined,
      })
      const usdcTransfer = {
        to: usdc,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [recipient, 1n] }),
      }
      expect(await h.redeemByOp(session, old, [usdcTransfer])).toEqual({ success: false, reason: disabled })
      expect(await h.redeemByOp(session, old, [{ to: recipient, value: 1n }])).toEqual({
        success: false,
        reason: disabled,
      })
      expect(await h.redeemByOp(session, wider, [{ to: recipient, value: 1n }])).toEqual({
        success: true,
        reason: undefined,
      })
    })
  })
})

describe('an EOA wallet upgraded by EIP-7702', () => {
  let devnet: Devnet
  let h: ReturnType<typeof chainHarness>
  beforeAll(async () => {
    devnet = await createDevnet()
    h = chainHarness(devnet)
  })
  afterAll(() => devnet.close())

  it('executes a call through a session key’s op, and revokes it by a transaction to itself', async () => {
    const { signUpgradeAuthorization } = await import('@agentwallet/core')
    const eoa = privateKeyToAccount(generatePrivateKey())
    await devnet.faucet(eoa.address, parseEther('10'))
    const eoaClient = h.walletOf(eoa)
    // The wallet's own key upgrades it, in its own type-4 transaction (so the authorization's nonce is +1).
    const authorization = await signUpgradeAuthorization(eoa, {
      chainId: h.chainId,
      contracts: h.contracts,
      nonce: 1,
    })
    await h.publicClient.waitForTransactionReceipt({
      hash: await eoaClient.sendTransaction({ to: eoa.address, authorizationList: [authorization] }),
    })
    expect(await h.publicClient.getCode({ address: eoa.address })).toBe(
      `0xef0100${h.contracts.eip7702DeleGator.slice(2).toLowerCase()}`,
    )
    const session = await h.newSessionAccount()
    await h.publicClient.waitForTransactionReceipt({
      hash: await eoaClient.writeContract({
        address: h.contracts.entryPoint,
        abi: entryPoint08Abi,
        functionName: 'depositTo',
        args: [session.address],
        value: parseEther('0.2'),
      }),
    })
    const recipient = stranger()
    const delegations = await h.issue(eoa, eoa.address, session.address, {
      expiresAt: Math.floor(Date.now() / 1000) + day,
      native: { perCall: parseEther('1') },
    })

    expect(await h.redeemByOp(session, delegations, [{ to: recipient, value: parseEther('0.3') }])).toEqual({
      success: true,
      reason: undefined,
    })
    expect(await h.publicClient.getBalance({ address: recipient })).toBe(parseEther('0.3'))
    expect(await h.redeemByOp(session, delegations, [{ to: recipient, value: parseEther('1.1') }])).toEqual({
      success: false,
      reason: 'ValueLteEnforcer:value-too-high',
    })

    // The EOA's own key revokes: a transaction to itself (the DeleGator admits calls from itself).
    await h.publicClient.waitForTransactionReceipt({
      hash: await eoaClient.sendTransaction({
        to: eoa.address,
        data: walletCalldata([revokeCall(delegations.calls!)]),
      }),
    })
    expect(await h.redeemByOp(session, delegations, [{ to: recipient, value: 1n }])).toEqual({
      success: false,
      reason: disabled,
    })
  })
})
