import {
  type AgentWallet,
  deployByRelayer,
  erc1271Abi,
  erc1271MagicValue,
  relayerAccount,
  signAsWallet,
  signedDigest,
  type WalletRecord,
} from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { type PublicClient, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, it } from 'vitest'
import { publicClientOf, useDevnetAgentWallet } from '../helpers/devnetAgentWallet.js'

// A smart wallet signs as itself: its owner key's signature over the verifier's digest is an EIP-1271
// signature its HybridDeleGator accepts (docs/smart-accounts.md, "Signatures of a smart wallet").

let devnet: Devnet
let aw: AgentWallet
let client: PublicClient
let smart: WalletRecord
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

const typedData = {
  domain: {
    name: 'Example',
    version: '1',
    chainId: 31337,
    verifyingContract: '0x0000000000000000000000000000000000000001',
  },
  types: {
    Note: [
      { name: 'text', type: 'string' },
      { name: 'amount', type: 'uint256' },
    ],
  },
  primaryType: 'Note',
  message: { text: 'hello', amount: 7n },
} as const

beforeAll(async () => {
  client = publicClientOf(devnet)
  await devnet.faucet((await relayerAccount(aw.context, 'default')).address, parseEther('10'))
  const { wallet } = await aw.createWallet({ agentName: 'signs-1271', kind: 'smart' })
  smart = (await aw.context.storage.get('wallets', wallet.id))!
})

describe('signAsWallet', () => {
  it('a smart wallet’s typed data and messages verify through EIP-1271, once its contract is deployed', async () => {
    const signer = await signAsWallet(aw.context, smart)
    expect(signer).toMatchObject({ address: smart.address, keyId: smart.smart!.owner, scheme: 'erc1271' })
    const domain = { ...typedData.domain, chainId: devnet.chain.id }
    const signature = await signer.signTypedData({ ...typedData, domain })
    const messageSignature = await signer.signMessage('agent wallet')
    expect(await client.getCode({ address: smart.address })).toBeUndefined()

    await deployByRelayer(aw.context, aw.context.chains.get('devnet'), smart)
    expect(await client.getCode({ address: smart.address })).toMatch(/^0x.+/)
    // Deploying again sends nothing.
    const before = (await aw.context.storage.query('transactions', { where: { tenantId: 'default' } })).length
    await deployByRelayer(aw.context, aw.context.chains.get('devnet'), smart)
    expect((await aw.context.storage.query('transactions', { where: { tenantId: 'default' } })).length).toBe(
      before,
    )

    const isValid = (digest: `0x${string}`, sig: `0x${string}`) =>
      client.readContract({
        address: smart.address,
        abi: erc1271Abi,
        functionName: 'isValidSignature',
        args: [digest, sig],
      })
    expect(await isValid(signedDigest({ typedData: { ...typedData, domain } }), signature)).toBe(
      erc1271MagicValue,
    )
    expect(await isValid(signedDigest({ message: 'agent wallet' }), messageSignature)).toBe(erc1271MagicValue)
    expect(await client.verifyTypedData({ ...typedData, domain, address: smart.address, signature })).toBe(
      true,
    )
    expect(
      await client.verifyMessage({
        address: smart.address,
        message: 'agent wallet',
        signature: messageSignature,
      }),
    ).toBe(true)

    // Another key's signature, or the owner's over other data, is refused by the wallet.
    const stranger = await privateKeyToAccount(generatePrivateKey()).signTypedData({ ...typedData, domain })
    await expect(isValid(signedDigest({ typedData: { ...typedData, domain } }), stranger)).resolves.not.toBe(
      erc1271MagicValue,
    )
    expect(
      await client.verifyTypedData({ ...typedData, domain, address: smart.address, signature: stranger }),
    ).toBe(false)
    expect(
      await client.verifyMessage({ address: smart.address, message: 'other', signature: messageSignature }),
    ).toBe(false)
  })

  it('an EOA wallet signs with its own key (ECDSA); a relayer signs for no one', async () => {
    const { wallet } = await aw.createWallet({ agentName: 'signs-ecdsa' })
    const eoa = (await aw.context.storage.get('wallets', wallet.id))!
    const signer = await signAsWallet(aw.context, eoa)
    expect(signer).toMatchObject({ address: eoa.address, keyId: eoa.address, scheme: 'ecdsa' })
    const domain = { ...typedData.domain, chainId: devnet.chain.id }
    const signature = await signer.signTypedData({ ...typedData, domain })
    expect(await client.verifyTypedData({ ...typedData, domain, address: eoa.address, signature })).toBe(true)

    const relayer = await relayerAccount(aw.context, 'default')
    await expect(signAsWallet(aw.context, relayer)).rejects.toMatchObject({
      code: 'wallet_kind_unsupported',
      details: { kind: 'relayer' },
    })
  })
})
