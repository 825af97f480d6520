import { type AgentWallet, type AuditLine, auditLines, relayerAccount } from '@agentwallet/core'
import { type Devnet, fiatTokenAbi } from '@agentwallet/devnet'
import {
  type Address,
  erc20Abi,
  type Hex,
  type PublicClient,
  parseEther,
  parseEventLogs,
  parseUnits,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  freshAddress,
  publicClientOf,
  useDevnetAgentWallet,
  withStatus,
} from '../helpers/devnetAgentWallet.js'
import { startX402ResourceServer, type X402ResourceServer } from '../helpers/x402ResourceServer.js'

// x402 from a smart wallet (docs/smart-accounts.md, "x402"): its owner key signs the EIP-3009
// authorization as the wallet's EIP-1271 signature, checked by the token (FiatToken's SignatureChecker)
// and by the real x402 packages' facilitator; a token that checks only ecrecover is refused up front.

let devnet: Devnet
let aw: AgentWallet
useDevnetAgentWallet((started) => ({ devnet, aw } = started), {
  webhooks: { allowPrivateTargets: ['127.0.0.0/8'] },
})

const price = 10_000n // 0.01 USDC
let client: PublicClient
let usdc: Address
let payee: Address
let resources: X402ResourceServer
let daiResources: X402ResourceServer

beforeAll(async () => {
  client = publicClientOf(devnet)
  usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
  const dai = devnet.addressBook.tokens.find((token) => token.symbol === 'DAI')!.address
  payee = freshAddress()
  resources = await startX402ResourceServer(devnet, usdc, [
    { path: '/paid', amount: price, payTo: payee },
    { path: '/broken', amount: price, payTo: payee, status: 500 },
  ])
  daiResources = await startX402ResourceServer(devnet, dai, [
    { path: '/dai', amount: parseEther('0.01'), payTo: payee },
  ])
  await devnet.faucet((await relayerAccount(aw.context, 'default')).address, parseEther('10'))
})
afterAll(async () => {
  await resources?.close()
  await daiResources?.close()
})

const balanceOf = (address: Address) =>
  client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [address] })

async function auditOf(walletId: string): Promise<AuditLine[]> {
  const lines: AuditLine[] = []
  for await (const line of auditLines(aw.context.storage, 'default'))
    if (line.subjects.walletId === walletId) lines.push(line)
  return lines
}

describe('a smart wallet pays by x402', () => {
  it('with an EIP-1271 authorization its owner key signs: settled on chain by the packages’ facilitator', async () => {
    const { wallet } = await aw.createWallet({ agentName: 'smart-x402', kind: 'smart' })
    await devnet.mintToken(usdc, wallet.address, parseUnits('1', 6))
    // Not on chain yet: the token and the facilitator ask its contract, so it is deployed first.
    expect(await client.getCode({ address: wallet.address })).toBeUndefined()
    const before = await balanceOf(payee)

    const paid = withStatus(
      await aw.fetch(`${resources.url}/paid`, {}, { wallet: wallet.address, maxAmount: '0.05' }),
      'completed',
    )

    expect(paid.response.status).toBe(200)
    expect(paid.payment!.transaction).toMatchObject({
      kind: 'x402_payment',
      status: 'confirmed',
      from: wallet.address,
      to: payee,
    })
    expect(await balanceOf(wallet.address)).toBe(parseUnits('1', 6) - price)
    expect(await balanceOf(payee)).toBe(before + price)
    const receipt = await client.getTransactionReceipt({ hash: paid.payment!.settlementTx as Hex })
    const [used] = parseEventLogs({ abi: fiatTokenAbi, logs: receipt.logs, eventName: 'AuthorizationUsed' })
    expect(used?.args.authorizer).toBe(wallet.address)
    expect(await client.getCode({ address: wallet.address })).toMatch(/^0x.+/)

    // Recorded as an EOA's authorization is, under the key that signed it: the owner key.
    const signed = (await auditOf(wallet.id)).filter(
      (line) => line.kind === 'vault.signature' && (line.payload as { for?: string }).for === 'x402_payment',
    )
    expect(signed).toHaveLength(1)
    expect(signed[0]?.subjects).toMatchObject({
      transactionId: paid.payment!.transaction.id,
      keyId: wallet.smart!.owner,
    })
    expect(signed[0]?.payload).toMatchObject({ primaryType: 'TransferWithAuthorization' })
  })

  it('is refused for a token that does not accept EIP-1271 signatures, before anything is signed or saved', async () => {
    const { wallet } = await aw.createWallet({ agentName: 'smart-x402-dai', kind: 'smart' })
    await devnet.mintToken('DAI', wallet.address, parseEther('1'))
    const signaturesBefore = (await auditOf(wallet.id)).filter(
      (line) => line.kind === 'vault.signature',
    ).length

    await expect(
      aw.fetch(`${daiResources.url}/dai`, {}, { wallet: wallet.address, maxAmount: '0.05' }),
    ).rejects.toMatchObject({
      code: 'wallet_kind_unsupported',
      details: { wallet: wallet.address, kind: 'smart', reason: 'token does not accept EIP-1271 signatures' },
    })
    expect((await aw.listHistory({ wallet: wallet.address })).count).toBe(0)
    expect((await auditOf(wallet.id)).filter((line) => line.kind === 'vault.signature')).toHaveLength(
      signaturesBefore,
    )
    expect(await client.getCode({ address: wallet.address })).toBeUndefined()
  })

  it('cancels an authorization its payee did not use: CancelAuthorization signed as EIP-1271, sent in its op', async () => {
    const { wallet } = await aw.createWallet({ agentName: 'smart-x402-cancel', kind: 'smart' })
    await devnet.mintToken(usdc, wallet.address, parseUnits('1', 6))
    await devnet.faucet(wallet.address, parseEther('1'))
    const refused = await aw
      .fetch(`${resources.url}/broken`, {}, { wallet: wallet.address, maxAmount: '0.05' })
      .then(
        () => undefined,
        (error: { code: string; details: Record<string, unknown> }) => error,
      )
    expect(refused).toMatchObject({
      code: 'payment_failed',
      details: { status: 500, transactionStatus: 'queued' },
    })
    const id = refused!.details.transactionId as string

    const cancelled = await aw.cancelPayment({ payment: id })
    expect(cancelled.transaction).toMatchObject({ kind: 'contract_call', to: usdc, from: wallet.address })
    const mined = await aw.waitForTransaction({ transaction: cancelled.transaction.id })

    expect(mined.transaction.status).toBe('confirmed')
    const record = await aw.context.storage.get('transactions', id)
    const { nonce } = record!.meta!.authorization as { nonce: Hex }
    expect(
      await client.readContract({
        address: usdc,
        abi: fiatTokenAbi,
        functionName: 'authorizationState',
        args: [wallet.address, nonce],
      }),
    ).toBe(true)
    const signed = (await auditOf(wallet.id)).filter(
      (line) => line.kind === 'vault.signature' && (line.payload as { for?: string }).for === 'x402_cancel',
    )
    expect(signed.map((line) => line.subjects.keyId)).toEqual([wallet.smart!.owner])
  })
})
