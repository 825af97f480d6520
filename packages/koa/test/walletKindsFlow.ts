import {
  type AgentWallet,
  type ChainConfig,
  createAgentWallet,
  memoryStorage,
  relayerAccount,
} from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { createApp, type RunningServer } from '@agentwallet/koa'
import {
  type Address,
  createPublicClient,
  custom,
  encodeFunctionData,
  erc20Abi,
  maxUint256,
  type PublicClient,
  parseEther,
  parseUnits,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { recordFidelity, verifyTrail } from '../../../test/helpers/devnetAgentWallet.js'
import { startReceiver } from '../../../test/helpers/webhookReceiver.js'

/**
 * The black-box flow of the three wallet kinds (eoa, smart, upgraded) over HTTP, on the chain `start`
 * gives (our devnet, anvil with the protocol set), reached as `chainOf` says.
 */
export function walletKindsFlow(
  start: () => Promise<Devnet>,
  chainOf: (devnet: Devnet) => ChainConfig = (devnet) => ({
    provider: devnet.provider,
    chainId: devnet.chain.id,
    contracts: devnet.addressBook,
  }),
): void {
  const adminKey = 'aw_test_wallet_kinds_admin_key_0123456789'
  let devnet: Devnet
  let agentWallet: AgentWallet
  let server: RunningServer
  let usdc: Address
  let chain: PublicClient
  const fresh = () => privateKeyToAccount(generatePrivateKey()).address

  async function call(method: string, path: string, body?: unknown, key = adminKey, headers = {}) {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        'x-api-key': key,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as any }
  }

  beforeAll(async () => {
    devnet = await start()
    agentWallet = await createAgentWallet({
      chains: { devnet: chainOf(devnet) },
      storage: memoryStorage(),
      defaultTenantRules: [],
      trackerIntervalMs: 20,
      checkOperations: true,
      webhooks: {
        allowPrivateTargets: ['127.0.0.0/8'],
        intervalMs: 20,
        backoffBaseMs: 20,
        backoffMaxMs: 100,
      },
    })
    await agentWallet.bootstrapAdmin({ adminKey })
    server = await createApp({ agentWallet, rateLimit: false }).listen({ port: 0 })
    chain = createPublicClient({ chain: devnet.chain, transport: custom(devnet.provider) }) as PublicClient
    usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
    // The operator funds the tenant's relayer, which submits smart wallets' user operations.
    await devnet.faucet((await relayerAccount(agentWallet.context, 'default')).address, parseEther('10'))
  })
  afterAll(async () => {
    // Effects fidelity: every tx the three kinds confirmed did what was predicted before it was signed.
    if (agentWallet) expect((await recordFidelity(agentWallet)).differed).toEqual([])
    await server?.close()
    await agentWallet?.close()
    // Every decision and signature the three kinds made is in a trail that verifies offline.
    if (agentWallet) expect((await verifyTrail(agentWallet)).problems).toEqual([])
    await devnet?.close()
  })

  /** Every message the WebSocket stream sends an admin, from now on. */
  async function stream() {
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/ws`, {
      headers: { 'x-api-key': adminKey },
    })
    const messages: { type: string; data?: Record<string, unknown> }[] = []
    socket.on('message', (raw) => messages.push(JSON.parse(raw.toString())))
    await new Promise((resolve) => socket.on('open', resolve))
    return { messages, close: () => socket.terminate() }
  }

  async function confirmed(id: string) {
    const waited = await call('GET', `/wallet/tx/${id}/wait?timeoutMs=20000`)
    expect(waited.status).toBe(200)
    expect(waited.body.transaction.status).toBe('confirmed')
    return waited.body.transaction
  }

  /** A wallet of `kind`: created as one, or (`upgraded`) created as an EOA and upgraded by EIP-7702. */
  async function walletOfKind(kind: 'eoa' | 'smart' | 'upgraded') {
    const created = await call('POST', '/wallet/create', {
      agentName: `flow-${kind}`,
      kind: kind === 'upgraded' ? 'eoa' : kind,
    })
    expect(created.status).toBe(201)
    if (kind !== 'upgraded') return created.body.wallet
    const upgraded = await call('POST', '/wallet/upgrade', { wallet: created.body.wallet.address })
    expect(upgraded.status).toBe(200)
    expect(upgraded.body.wallet).toMatchObject({
      address: created.body.wallet.address,
      kind: 'smart',
      smart: { account: 'eip7702', owner: created.body.wallet.address },
    })
    return upgraded.body.wallet
  }

  describe.each(['eoa', 'smart', 'upgraded'] as const)('a %s wallet over HTTP', (kind) => {
    it('create, list, balance, fund, send, token send, contract call, wait, history, webhook, stream', async () => {
      const receiver = await startReceiver()
      const ws = await stream()
      try {
        const wallet = await walletOfKind(kind)
        expect(wallet.kind).toBe(kind === 'eoa' ? 'eoa' : 'smart')
        expect(wallet.smart !== undefined).toBe(kind !== 'eoa')
        const hook = await call('POST', '/webhooks/subscribe', {
          url: receiver.url,
          events: ['tx_confirmed'],
        })
        expect(hook.status).toBe(201)

        const listed = await call('GET', '/wallet/list')
        expect(listed.body.wallets.map((each: { address: string }) => each.address)).toContain(wallet.address)
        expect((await call('GET', `/wallet/${wallet.address}/balance`)).body.eth).toBe('0')
        await devnet.faucet(wallet.address, parseEther('3'))
        await devnet.mintToken('USDC', wallet.address, parseUnits('100', 6))
        expect((await call('GET', `/wallet/${wallet.address}/balance`)).body.eth).toBe('3')

        const recipient = fresh()
        const sent = await call('POST', `/wallet/${wallet.address}/send`, { to: recipient, value: '0.25' })
        expect(sent.status).toBe(200)
        expect(sent.body.transaction.status).toBe('submitted')
        const ethDone = await confirmed(sent.body.transaction.id)
        expect(ethDone).toMatchObject({ from: wallet.address, to: recipient })
        expect((await call('GET', `/wallet/${recipient}/balance`)).status).toBe(404)
        expect(await chain.getBalance({ address: recipient })).toBe(parseEther('0.25'))

        const token = await call('POST', `/wallet/${wallet.address}/send`, {
          to: recipient,
          value: '7',
          token: usdc,
        })
        expect(token.status).toBe(200)
        await confirmed(token.body.transaction.id)

        const spender = fresh()
        const data = encodeFunctionData({
          abi: erc20Abi,
          functionName: 'approve',
          args: [spender, maxUint256],
        })
        const called = await call('POST', `/wallet/${wallet.address}/send`, { to: usdc, value: '0', data })
        expect(called.status).toBe(200)
        await confirmed(called.body.transaction.id)
        expect(
          await chain.readContract({
            address: usdc,
            abi: erc20Abi,
            functionName: 'allowance',
            args: [wallet.address, spender],
          }),
        ).toBe(maxUint256)

        const history = await call('GET', `/wallet/${wallet.address}/history`)
        expect(history.body.count).toBe(3)
        expect(history.body.transactions.every((tx: { status: string }) => tx.status === 'confirmed')).toBe(
          true,
        )

        const ids = [sent, token, called].map((answer) => answer.body.transaction.id)
        await expect
          .poll(() => receiver.received.filter((each) => ids.includes(each.json.data.transactionId)).length, {
            timeout: 10_000,
          })
          .toBe(3)
        await expect
          .poll(
            () =>
              ws.messages.filter(
                (each) => each.type === 'tx.confirmed' && ids.includes(String(each.data?.transactionId)),
              ).length,
            { timeout: 10_000 },
          )
          .toBe(3)
        await call('DELETE', `/webhooks/${hook.body.subscription.id}`)
      } finally {
        ws.close()
        await receiver.close()
      }
    })

    it('swap (approve and swap: one op for a smart wallet), its idempotent replay, stake', async () => {
      const wallet = await walletOfKind(kind)
      await devnet.faucet(wallet.address, parseEther('3'))
      await devnet.mintToken('DAI', wallet.address, parseUnits('100', 18))
      const dai = devnet.addressBook.tokens.find((token) => token.symbol === 'DAI')!.address
      const daiOf = () =>
        chain.readContract({ address: dai, abi: erc20Abi, functionName: 'balanceOf', args: [wallet.address] })

      const request = { wallet: wallet.address, fromToken: 'DAI', toToken: 'ETH', amount: '40' }
      const key = { 'idempotency-key': `swap-${kind}` }
      const swapped = await call('POST', '/defi/swap', request, adminKey, key)
      expect(swapped.status).toBe(200)
      expect(swapped.body).toMatchObject({ status: 'confirmed', wallet: wallet.address })
      expect(BigInt(swapped.body.amountOutRaw)).toBeGreaterThan(0n)
      expect(await daiOf()).toBe(parseUnits('60', 18))
      // An EOA approves first, by a tx of its own; a smart wallet's approve rides in the swap's op.
      expect(swapped.body.allowanceTransaction === null).toBe(kind !== 'eoa')
      const replayed = await call('POST', '/defi/swap', request, adminKey, key)
      expect(replayed.status).toBe(200)
      expect(replayed.body.transaction.id).toBe(swapped.body.transaction.id)
      expect(await daiOf()).toBe(parseUnits('60', 18))

      const staked = await call('POST', '/defi/stake', {
        wallet: wallet.address,
        protocol: 'lido',
        amount: '1',
      })
      expect(staked.status).toBe(200)
      expect(staked.body).toMatchObject({
        status: 'confirmed',
        transaction: { kind: 'stake', status: 'confirmed' },
      })
      expect(BigInt(staked.body.received.amountRaw)).toBeGreaterThan(0n)

      const history = await call('GET', `/wallet/${wallet.address}/history`)
      expect(history.body.transactions.map((tx: { kind: string }) => tx.kind).sort()).toEqual(
        kind !== 'eoa' ? ['stake', 'swap'] : ['contract_call', 'stake', 'swap'],
      )
    })
  })

  describe('POST /wallet/upgrade', () => {
    it('answers 422 wallet_kind_unsupported for a smart wallet, 403 to an agent, 404 for an unknown wallet', async () => {
      const smart = await walletOfKind('smart')
      const again = await call('POST', '/wallet/upgrade', { wallet: smart.address })
      expect(again.status).toBe(422)
      expect(again.body.error.code).toBe('wallet_kind_unsupported')
      const { key } = (await call('POST', '/api-keys', { name: 'upgrade-agent', role: 'agent' })).body
      const eoa = (await call('POST', '/wallet/create', { agentName: 'agent-eoa' }, key)).body.wallet
      const byAgent = await call('POST', '/wallet/upgrade', { wallet: eoa.address }, key)
      expect(byAgent.status).toBe(403)
      expect(byAgent.body.error.code).toBe('forbidden')
      const unknown = await call('POST', '/wallet/upgrade', { wallet: fresh() })
      expect(unknown.status).toBe(404)
      expect(unknown.body.error.code).toBe('not_found')
    })
  })
}
