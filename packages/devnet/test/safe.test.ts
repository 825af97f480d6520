import {
  type Address,
  concat,
  encodeFunctionData,
  type Hex,
  parseEther,
  parseEventLogs,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet, safeAbi, safeProxyFactoryAbi } from '../src/index.js'
import { clientsFor } from './clients.js'

const safeTxTypes = {
  SafeTx: [
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'data', type: 'bytes' },
    { name: 'operation', type: 'uint8' },
    { name: 'safeTxGas', type: 'uint256' },
    { name: 'baseGas', type: 'uint256' },
    { name: 'gasPrice', type: 'uint256' },
    { name: 'gasToken', type: 'address' },
    { name: 'refundReceiver', type: 'address' },
    { name: 'nonce', type: 'uint256' },
  ],
} as const

describe('Safe v1.4.1', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await createDevnet()
  })
  afterAll(() => devnet.close())

  it('sits at the canonical addresses', () => {
    expect(devnet.addressBook.safe).toMatchObject({
      singleton: '0x41675C099F32341bf84BFc5382aF534df5C7461a',
      singletonL2: '0x29fcB43b46531BcA003ddC8FCB67FFE91900C762',
      proxyFactory: '0x4e1DCf7AD4e460CfD30791CCC4F9c8a4f820ec67',
      fallbackHandler: '0xfd0732Dc9E303f09fCEf3a7388Ad10A83459Ec99',
      multiSend: '0x38869bf66a61cF6bDB996A6aE40D5853Fd43B526',
    })
  })

  it('executes a 2-of-3 transaction with EIP-712 owner signatures, and refuses one signature', async () => {
    const { publicClient, wallet } = clientsFor(devnet)
    const { safe } = devnet.addressBook
    const owners = [1, 2, 3].map((i) => privateKeyToAccount(devnet.accounts[i]!.privateKey))
    const relayer = wallet(4)

    const initializer = encodeFunctionData({
      abi: safeAbi,
      functionName: 'setup',
      args: [
        owners.map((o) => o.address),
        2n,
        zeroAddress,
        '0x',
        safe.fallbackHandler,
        zeroAddress,
        0n,
        zeroAddress,
      ],
    })
    const deployHash = await relayer.writeContract({
      address: safe.proxyFactory,
      abi: safeProxyFactoryAbi,
      functionName: 'createProxyWithNonce',
      args: [safe.singletonL2, initializer, 1n],
    })
    const receipt = await publicClient.getTransactionReceipt({ hash: deployHash })
    const [creation] = parseEventLogs({
      abi: safeProxyFactoryAbi,
      logs: receipt.logs,
      eventName: 'ProxyCreation',
    })
    const safeAddress = creation!.args.proxy
    expect(
      await publicClient.readContract({ address: safeAddress, abi: safeAbi, functionName: 'getThreshold' }),
    ).toBe(2n)

    await devnet.faucet(safeAddress, parseEther('1'))
    const recipient: Address = '0x000000000000000000000000000000000000bEEF'
    const nonce = await publicClient.readContract({
      address: safeAddress,
      abi: safeAbi,
      functionName: 'nonce',
    })
    const tx = {
      to: recipient,
      value: parseEther('0.25'),
      data: '0x' as Hex,
      operation: 0,
      safeTxGas: 0n,
      baseGas: 0n,
      gasPrice: 0n,
      gasToken: zeroAddress,
      refundReceiver: zeroAddress,
      nonce,
    }
    const sign = (owner: (typeof owners)[number]) =>
      owner.signTypedData({
        domain: { chainId: devnet.chain.id, verifyingContract: safeAddress },
        types: safeTxTypes,
        primaryType: 'SafeTx',
        message: tx,
      })
    const exec = (signatures: Hex) =>
      relayer.writeContract({
        address: safeAddress,
        abi: safeAbi,
        functionName: 'execTransaction',
        args: [
          tx.to,
          tx.value,
          tx.data,
          tx.operation,
          tx.safeTxGas,
          tx.baseGas,
          tx.gasPrice,
          tx.gasToken,
          tx.refundReceiver,
          signatures,
        ],
      })

    // Safe wants signatures ordered by owner address.
    const signers = [owners[0]!, owners[2]!].sort((a, b) =>
      a.address.toLowerCase() < b.address.toLowerCase() ? -1 : 1,
    )
    const signatures = await Promise.all(signers.map(sign))

    await expect(exec(signatures[0]!)).rejects.toThrow(/GS020/)
    const hash = await exec(concat(signatures))
    expect((await publicClient.getTransactionReceipt({ hash })).status).toBe('success')
    expect(await publicClient.getBalance({ address: recipient })).toBe(parseEther('0.25'))
    expect(
      await publicClient.readContract({ address: safeAddress, abi: safeAbi, functionName: 'nonce' }),
    ).toBe(nonce + 1n)
  })
})
