import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DelegationManager, EIP7702StatelessDeleGator, HybridDeleGator } from '@metamask/delegation-abis'
import {
  concat,
  getAddress,
  parseEther,
  recoverTransactionAddress,
  type TransactionSerializedLegacy,
} from 'viem'
import { entryPoint08Abi, entryPoint08Address } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deterministicDeployer } from '../src/deployAccountAbstraction.js'
import { createDevnet, type Devnet, devnetDeployer } from '../src/index.js'
import { clientsFor } from './clients.js'

describe('account abstraction (EntryPoint v0.8, Delegation Framework)', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await createDevnet()
  })
  afterAll(() => devnet.close())

  it('puts EntryPoint v0.8 at its canonical address, from the presigned deterministic deployer', async () => {
    const { publicClient } = clientsFor(devnet)
    const book = devnet.addressBook.accountAbstraction
    expect(book.entryPoint).toBe(entryPoint08Address)
    expect(
      await recoverTransactionAddress({
        serializedTransaction: deterministicDeployer.transaction as TransactionSerializedLegacy,
      }),
    ).toBe(getAddress(deterministicDeployer.signer))
    expect(await publicClient.getCode({ address: deterministicDeployer.address })).toMatch(/^0x.+/)
    // The EntryPoint answers as one: no deposit yet for a fresh address.
    const balance = await publicClient.readContract({
      address: book.entryPoint,
      abi: entryPoint08Abi,
      functionName: 'balanceOf',
      args: [privateKeyToAccount(generatePrivateKey()).address],
    })
    expect(balance).toBe(0n)
  })

  it('binds the DeleGators to that EntryPoint and to the DelegationManager', async () => {
    const { publicClient } = clientsFor(devnet)
    const book = devnet.addressBook.accountAbstraction
    for (const [address, abi] of [
      [book.hybridDeleGatorImpl, HybridDeleGator],
      [book.eip7702DeleGator, EIP7702StatelessDeleGator],
    ] as const) {
      expect(await publicClient.readContract({ address, abi, functionName: 'entryPoint' })).toBe(
        book.entryPoint,
      )
      expect(await publicClient.readContract({ address, abi, functionName: 'delegationManager' })).toBe(
        book.delegationManager,
      )
    }
    expect(
      await publicClient.readContract({
        address: book.delegationManager,
        abi: DelegationManager,
        functionName: 'owner',
      }),
    ).toBe(devnetDeployer.address)
    for (const enforcer of Object.values(book.enforcers)) {
      expect(await publicClient.getCode({ address: enforcer })).toMatch(/^0x.+/)
    }
  })

  it('runs Prague: a type-4 transaction delegates an EOA to EIP7702StatelessDeleGator', async () => {
    const { publicClient, wallet } = clientsFor(devnet)
    const book = devnet.addressBook.accountAbstraction
    const eoa = privateKeyToAccount(generatePrivateKey())
    await devnet.faucet(eoa.address, parseEther('1'))
    const authorization = await eoa.signAuthorization({
      chainId: devnet.chain.id,
      contractAddress: book.eip7702DeleGator,
      nonce: 0,
    })
    // A relayer sends it: the EOA itself holds no key material on the node and pays nothing.
    const relayer = wallet(1)
    const hash = await relayer.sendTransaction({
      to: eoa.address,
      authorizationList: [authorization],
      data: '0x',
    })
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(receipt.type).toBe('eip7702')
    expect(await publicClient.getCode({ address: eoa.address })).toBe(
      concat(['0xef0100', book.eip7702DeleGator]).toLowerCase(),
    )
    expect(
      await publicClient.readContract({
        address: eoa.address,
        abi: EIP7702StatelessDeleGator,
        functionName: 'entryPoint',
      }),
    ).toBe(book.entryPoint)
  })
})

describe('account abstraction in an older data dir', () => {
  it('is deployed into a data dir made before the devnet had it, once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'devnet-aa-upgrade-'))
    try {
      const made = await createDevnet({ dataDir: dir })
      const { accountAbstraction: _, ...olderBook } = made.addressBook
      await made.close()
      // What an earlier version wrote: the same meta without accountAbstraction. The EntryPoint found at
      // its canonical address is kept; the rest is deployed anew from the deployer's next nonces.
      const meta = JSON.parse(readFileSync(join(dir, 'devnet.json'), 'utf8'))
      writeFileSync(join(dir, 'devnet.json'), JSON.stringify({ ...meta, addressBook: olderBook }))

      const upgraded = await createDevnet({ dataDir: dir })
      const { accountAbstraction, ...rest } = upgraded.addressBook
      expect(rest).toEqual(olderBook)
      expect(accountAbstraction.entryPoint).toBe(entryPoint08Address)
      const { publicClient } = clientsFor(upgraded)
      expect(await publicClient.getCode({ address: accountAbstraction.delegationManager })).toMatch(/^0x.+/)
      await upgraded.close()

      const again = await createDevnet({ dataDir: dir })
      expect(again.addressBook.accountAbstraction).toEqual(accountAbstraction)
      await again.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
