import type { AgentWallet } from '@agentwallet/core'
import { memoryStorage } from '@agentwallet/core'
import { type Devnet, fiatTokenAbi } from '@agentwallet/devnet'
import { awsKmsKeyVault, kmsKeyRecordStore } from '@agentwallet/vault-kms/aws'
import { type Address, encodeFunctionData, erc20Abi, getAddress, type Hex, parseEther, toHex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  agentWalletOn,
  freshAddress,
  fundedWallet,
  publicClientOf,
  recordFidelity,
  startDevnet,
} from '../helpers/devnetAgentWallet.js'
import { type FakeAwsKms, startFakeAwsKms } from '../helpers/fakeAwsKms.js'

let kms: FakeAwsKms
let devnet: Devnet
let aw: AgentWallet

beforeAll(async () => {
  kms = await startFakeAwsKms()
  devnet = await startDevnet()
  const storage = memoryStorage()
  aw = await agentWalletOn(devnet, {
    storage,
    vault: awsKmsKeyVault({
      region: kms.region,
      endpoint: kms.url,
      credentials: kms.credentials,
      store: kmsKeyRecordStore(storage),
    }),
  })
})
afterAll(async () => {
  if (aw) expect((await recordFidelity(aw)).differed).toEqual([])
  await aw?.close()
  await devnet?.close()
  await kms?.close()
})

describe('an AgentWallet on the AWS KMS vault (fake AWS KMS, devnet)', () => {
  it('creates the wallet key in KMS and confirms a send signed there', async () => {
    const created = kms.calls.CreateKey ?? 0
    const wallet = await fundedWallet(aw, devnet, '2')
    expect((kms.calls.CreateKey ?? 0) - created).toBe(1)
    const signs = kms.calls.Sign ?? 0
    const to = freshAddress()
    const { transaction } = await aw.send({ wallet: wallet.address, to, value: '0.25' })
    const done = await aw.waitForTransaction({ transaction: transaction.id })
    expect(done.status).toBe('confirmed')
    const client = publicClientOf(devnet)
    const mined = await client.getTransaction({ hash: done.hash! })
    expect(getAddress(mined.from)).toBe(wallet.address)
    expect(await client.getBalance({ address: to })).toBe(parseEther('0.25'))
    expect((kms.calls.Sign ?? 0) - signs).toBeGreaterThanOrEqual(1)
  })

  it('signs an EIP-3009 authorization (EIP-712) in KMS that the token contract accepts on chain', async () => {
    const usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
    const client = publicClientOf(devnet)
    const holder = (await aw.createWallet({ agentName: 'kms-holder' })).wallet.address
    await devnet.mintToken(usdc, holder, 1_000_000n)
    const relayer = await fundedWallet(aw, devnet, '1', 'kms-relayer')
    const [, name, version, chainId] = await client.readContract({
      address: usdc,
      abi: fiatTokenAbi,
      functionName: 'eip712Domain',
    })
    const payee = freshAddress()
    const message = {
      from: holder,
      to: payee,
      value: 250_000n,
      validAfter: 0n,
      validBefore: BigInt(Math.floor(Date.now() / 1000) + 3600),
      nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
    }
    const signer = await aw.context.vault.getSigner(holder)
    const signature = await signer.signTypedData({
      domain: { name, version, chainId, verifyingContract: usdc },
      types: {
        TransferWithAuthorization: [
          { name: 'from', type: 'address' },
          { name: 'to', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'validAfter', type: 'uint256' },
          { name: 'validBefore', type: 'uint256' },
          { name: 'nonce', type: 'bytes32' },
        ],
      },
      primaryType: 'TransferWithAuthorization',
      message,
    })
    const data = encodeFunctionData({
      abi: fiatTokenAbi,
      functionName: 'transferWithAuthorization',
      args: [
        holder,
        payee,
        message.value,
        message.validAfter,
        message.validBefore,
        message.nonce as Hex,
        signature,
      ],
    })
    const { transaction } = await aw.send({ wallet: relayer.address, to: usdc, value: '0', data })
    expect((await aw.waitForTransaction({ transaction: transaction.id })).status).toBe('confirmed')
    const balance = (address: Address) =>
      client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [address] })
    expect(await balance(payee)).toBe(250_000n)
    expect(await balance(holder)).toBe(750_000n)
  })
})
