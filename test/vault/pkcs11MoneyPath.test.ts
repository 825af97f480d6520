import type { AgentWallet } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type Pkcs11KeyVault, pkcs11KeyVault } from '@agentwallet/vault-pkcs11'
import { type Address, erc20Abi, parseEther, parseUnits, verifyTypedData } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  freshAddress,
  fundedWallet,
  publicClientOf,
  useDevnetAgentWallet,
  withStatus,
} from '../helpers/devnetAgentWallet.js'
import { createSoftHsmToken } from '../helpers/softHsmToken.js'
import { startX402ResourceServer, type X402ResourceServer } from '../helpers/x402ResourceServer.js'

// The money path with every key in a SoftHSM2 token: one token for this file (read once per process).
const token = createSoftHsmToken({ useInProcess: true })
const vault: Pkcs11KeyVault = pkcs11KeyVault({
  module: token.module,
  tokenLabel: token.tokenLabel,
  pin: token.pin,
})

let devnet: Devnet
let aw: AgentWallet
useDevnetAgentWallet((started) => ({ devnet, aw } = started), {
  vault,
  webhooks: { allowPrivateTargets: ['127.0.0.0/8'] },
})

let resources: X402ResourceServer
let usdc: Address
const payee = freshAddress()
beforeAll(async () => {
  usdc = devnet.addressBook.tokens.find((entry) => entry.symbol === 'USDC')!.address
  resources = await startX402ResourceServer(devnet, usdc, [{ path: '/paid', amount: 10_000n, payTo: payee }])
})
afterAll(async () => {
  await resources?.close()
  // The note: how many signatures SoftHSM2 got wrong over this file.
  console.info(`[pkcs11 money path] ${JSON.stringify(vault.stats())}`)
  await vault.close()
  token.cleanup()
})

describe('the money path on a SoftHSM2 token', () => {
  it('creates wallets whose keys are in the token and sends ETH that confirms', async () => {
    const wallet = await fundedWallet(aw, devnet, '2', 'hsm-sender')
    expect(await vault.hasKey(wallet.address)).toBe(true)
    const to = freshAddress()
    const sent = await aw.send({ wallet: wallet.address, to, value: '0.5' })
    const done = await aw.waitForTransaction({ transaction: sent.transaction.id })
    expect(done.status).toBe('confirmed')
    const client = publicClientOf(devnet)
    expect((await client.getTransactionReceipt({ hash: done.hash! })).from).toBe(wallet.address.toLowerCase())
    expect(await client.getBalance({ address: to })).toBe(parseEther('0.5'))
  })

  it('imports a key into the token and spends from it', async () => {
    const key = generatePrivateKey()
    const { wallet } = await aw.importWallet({ privateKey: key, agentName: 'hsm-imported' })
    expect(wallet.address).toBe(privateKeyToAccount(key).address)
    await devnet.faucet(wallet.address, parseEther('1'))
    const to = freshAddress()
    const sent = await aw.send({ wallet: wallet.address, to, value: '0.1' })
    expect((await aw.waitForTransaction({ transaction: sent.transaction.id })).status).toBe('confirmed')
    expect(await publicClientOf(devnet).getBalance({ address: to })).toBe(parseEther('0.1'))
  })

  it('runs a 2-of-2 Safe whose owners sign in the token: proposal, confirmation, execution', async () => {
    const owner1 = (await fundedWallet(aw, devnet, '2', 'hsm-owner-1')).address
    const owner2 = (await fundedWallet(aw, devnet, '2', 'hsm-owner-2')).address
    const deployed = await aw.deploySafe({ owners: [owner1, owner2], threshold: 2, wallet: owner1 })
    if (deployed.status !== 'deployed') throw new Error(`expected a deployed Safe, got ${deployed.status}`)
    const safe = deployed.address
    await devnet.faucet(safe, parseEther('1'))
    const recipient = freshAddress()
    const proposed = await aw.proposeSafeTransaction({ safe, wallet: owner1, to: recipient, value: '0.25' })
    expect(proposed).toMatchObject({ status: 'pending', confirmations: 1 })
    const confirmed = await aw.confirmSafeTransaction({
      safe,
      safeTxHash: proposed.proposal.safeTxHash,
      wallet: owner2,
    })
    expect(confirmed.transaction).toMatchObject({ status: 'confirmed' })
    expect(await publicClientOf(devnet).getBalance({ address: recipient })).toBe(parseEther('0.25'))
  })

  it('pays an x402 resource with an EIP-3009 authorization signed in the token', async () => {
    const { wallet } = await aw.createWallet({ agentName: 'hsm-x402' })
    await devnet.mintToken(usdc, wallet.address, parseUnits('1', 6))
    const paid = withStatus(
      await aw.fetch(`${resources.url}/paid`, {}, { wallet: wallet.address }),
      'completed',
    )
    expect(paid.payment!.transaction).toMatchObject({ kind: 'x402_payment', status: 'confirmed' })
    const balance = (address: Address) =>
      publicClientOf(devnet).readContract({
        address: usdc,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [address],
      })
    expect(await balance(payee)).toBe(10_000n)
    expect(await balance(wallet.address)).toBe(parseUnits('1', 6) - 10_000n)
  })

  it('signs typed data in the token: an identity proof that viem verifies', async () => {
    const wallet = await fundedWallet(aw, devnet, '1', 'hsm-prover')
    const registered = await aw.registerIdentity({
      wallet: wallet.address,
      agentName: 'hsm-prover',
      agentType: 'oracle',
    })
    if (registered.status !== 'registered') throw new Error(`expected registered, got ${registered.status}`)
    const { proof } = (await aw.getIdentity({ agentId: registered.identity.agentId })).identity
    const { domain, types, primaryType, message } = proof.typedData
    const verify = (address: Address) =>
      verifyTypedData({
        address,
        domain,
        types,
        primaryType,
        signature: proof.signature,
        message: {
          ...message,
          chainId: BigInt(message.chainId),
          agentId: BigInt(message.agentId),
          issuedAt: BigInt(message.issuedAt),
        },
      })
    expect(proof.signer).toBe(wallet.address)
    expect(await verify(wallet.address)).toBe(true)
    expect(await verify(freshAddress())).toBe(false)
  })
})
