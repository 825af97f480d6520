import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeFunctionData, namehash, parseEther, parseEventLogs, toHex, zeroAddress } from 'viem'
import { afterAll, describe, expect, it } from 'vitest'
import {
  createDevnet,
  ensEthRegistrarControllerAbi,
  ensPublicResolverAbi,
  identityRegistryAbi,
  safeAbi,
  safeProxyFactoryAbi,
  uniswapV3FactoryAbi,
} from '../src/index.js'
import { clientsFor } from './clients.js'

const dataDir = mkdtempSync(join(tmpdir(), 'devnet-persistence-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe('persistence', () => {
  it('deploys at the same addresses on every fresh start', async () => {
    const first = await createDevnet()
    const second = await createDevnet()
    try {
      expect(second.addressBook).toEqual(first.addressBook)
    } finally {
      await Promise.all([first.close(), second.close()])
    }
  })

  it('keeps balances, receipts, ENS names, identities and Safes across a restart with a dataDir', async () => {
    const devnet = await createDevnet({ dataDir })
    const { publicClient, wallet } = clientsFor(devnet)
    const alice = wallet(1)
    const { ens, erc8004, safe } = devnet.addressBook
    const recipient = '0x000000000000000000000000000000000000dEaD'

    const transfer = await alice.sendTransaction({ to: recipient, value: parseEther('1.5') })
    const transferReceipt = await publicClient.getTransactionReceipt({ hash: transfer })

    const register = await alice.writeContract({
      address: erc8004.identityRegistry,
      abi: identityRegistryAbi,
      functionName: 'register',
      args: ['ipfs://persisted.json'],
    })
    const registerLogs = (await publicClient.getTransactionReceipt({ hash: register })).logs
    const agentId = parseEventLogs({
      abi: identityRegistryAbi,
      logs: registerLogs,
      eventName: 'Registered',
    })[0]!.args.agentId

    const initializer = encodeFunctionData({
      abi: safeAbi,
      functionName: 'setup',
      args: [
        [alice.account.address],
        1n,
        zeroAddress,
        '0x',
        safe.fallbackHandler,
        zeroAddress,
        0n,
        zeroAddress,
      ],
    })
    const createSafe = await alice.writeContract({
      address: safe.proxyFactory,
      abi: safeProxyFactoryAbi,
      functionName: 'createProxyWithNonce',
      args: [safe.singletonL2, initializer, 7n],
    })
    const safeLogs = (await publicClient.getTransactionReceipt({ hash: createSafe })).logs
    const safeAddress = parseEventLogs({
      abi: safeProxyFactoryAbi,
      logs: safeLogs,
      eventName: 'ProxyCreation',
    })[0]!.args.proxy

    const controller = { address: ens.controller, abi: ensEthRegistrarControllerAbi } as const
    const secret = toHex(7n, { size: 32 })
    const commitment = await publicClient.readContract({
      ...controller,
      functionName: 'makeCommitmentWithConfig',
      args: ['persisted', alice.account.address, secret, ens.publicResolver, alice.account.address],
    })
    await alice.writeContract({ ...controller, functionName: 'commit', args: [commitment] })
    await devnet.increaseTime(3600)
    await alice.writeContract({
      ...controller,
      functionName: 'registerWithConfig',
      args: [
        'persisted',
        alice.account.address,
        31_536_000n,
        secret,
        ens.publicResolver,
        alice.account.address,
      ],
      value: parseEther('0.01'),
    })
    await devnet.mine(3)
    const before = await publicClient.getBlock()
    const aliceBalance = await publicClient.getBalance({ address: alice.account.address })
    await devnet.close()
    await expect(publicClient.getBlockNumber()).rejects.toThrow(/closed/)

    const restarted = await createDevnet({ dataDir })
    try {
      const after = clientsFor(restarted)
      expect(restarted.addressBook).toEqual(devnet.addressBook)
      const replayed = await after.publicClient.getBlock({ blockNumber: before.number })
      expect(replayed.hash).toBe(before.hash)
      expect(replayed.timestamp).toBe(before.timestamp)
      expect(await after.publicClient.getTransactionReceipt({ hash: transfer })).toEqual(transferReceipt)
      expect(await after.publicClient.getBalance({ address: recipient })).toBe(parseEther('1.5'))
      expect(await after.publicClient.getBalance({ address: alice.account.address })).toBe(aliceBalance)
      expect(
        await after.publicClient.readContract({
          address: erc8004.identityRegistry,
          abi: identityRegistryAbi,
          functionName: 'ownerOf',
          args: [agentId],
        }),
      ).toBe(alice.account.address)
      expect(
        await after.publicClient.readContract({
          address: safeAddress,
          abi: safeAbi,
          functionName: 'getOwners',
        }),
      ).toEqual([alice.account.address])
      const node = namehash('persisted.eth')
      expect(
        await after.publicClient.readContract({
          address: ens.publicResolver,
          abi: ensPublicResolverAbi,
          functionName: 'addr',
          args: [node],
        }),
      ).toBe(alice.account.address)

      // The clock went on from where it stood (including the hour added; never behind the last block,
      // the same second within one), and the chain takes new work.
      const hash = await after.wallet(1).sendTransaction({ to: recipient, value: 1n })
      const receipt = await after.publicClient.getTransactionReceipt({ hash })
      expect(receipt.blockNumber).toBe(before.number + 1n)
      const next = await after.publicClient.getBlock({ blockNumber: receipt.blockNumber })
      expect(next.timestamp).toBeGreaterThanOrEqual(before.timestamp)
    } finally {
      await restarted.close()
    }

    // The new transaction was journaled too.
    const third = await createDevnet({ dataDir })
    try {
      expect(await clientsFor(third).publicClient.getBalance({ address: recipient })).toBe(
        parseEther('1.5') + 1n,
      )
    } finally {
      await third.close()
    }
  })

  it('deploys Uniswap V3 into a data dir made before the devnet had it, once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'devnet-upgrade-'))
    try {
      const made = await createDevnet({ dataDir: dir })
      const { uniswapV3: _, ...olderBook } = made.addressBook
      await made.close()
      // What an earlier version wrote: the same meta without uniswapV3.
      const meta = JSON.parse(readFileSync(join(dir, 'devnet.json'), 'utf8'))
      writeFileSync(join(dir, 'devnet.json'), JSON.stringify({ ...meta, addressBook: olderBook }))

      const upgraded = await createDevnet({ dataDir: dir })
      const { uniswapV3, ...rest } = upgraded.addressBook
      expect(rest).toEqual(olderBook)
      const { publicClient } = clientsFor(upgraded)
      const [token0, token1] = [upgraded.addressBook.weth, rest.tokens[0]!.address].sort((a, b) =>
        a.toLowerCase() < b.toLowerCase() ? -1 : 1,
      )
      const pool = await publicClient.readContract({
        address: uniswapV3[0]!.factory,
        abi: uniswapV3FactoryAbi,
        functionName: 'getPool',
        args: [token0!, token1!, 500],
      })
      expect(await publicClient.getCode({ address: pool })).toMatch(/^0x.+/)
      await upgraded.close()

      const again = await createDevnet({ dataDir: dir })
      expect(again.addressBook.uniswapV3).toEqual(uniswapV3)
      await again.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('forgets what a reverted snapshot undid', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'devnet-snapshot-'))
    try {
      const devnet = await createDevnet({ dataDir: dir })
      const target = '0x00000000000000000000000000000000000f00D5'
      await devnet.faucet(target, 1n)
      const snapshot = await devnet.provider.request({ method: 'evm_snapshot' })
      await devnet.faucet(target, 10n)
      expect(await devnet.provider.request({ method: 'evm_revert', params: [snapshot] })).toBe(true)
      await devnet.close()
      const restarted = await createDevnet({ dataDir: dir })
      expect(
        BigInt(await restarted.provider.request({ method: 'eth_getBalance', params: [target, 'latest'] })),
      ).toBe(1n)
      await restarted.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('takes over a lock left by this pid in a previous life (a container restarts as pid 1) or by a previous boot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'devnet-stale-'))
    try {
      writeFileSync(join(dir, 'devnet.lock'), `${process.pid}\n`)
      await (await createDevnet({ dataDir: dir })).close()
      // The parent is alive, but the lock names another boot of the machine.
      writeFileSync(join(dir, 'devnet.lock'), `${process.ppid} not-this-boot\n`)
      await (await createDevnet({ dataDir: dir })).close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses a data dir another live devnet holds, and drops a torn last journal line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'devnet-lock-'))
    try {
      const devnet = await createDevnet({ dataDir: dir })
      await expect(createDevnet({ dataDir: dir })).rejects.toThrow(/in use/)
      const target = '0x00000000000000000000000000000000000bA5e5'
      await devnet.faucet(target, 5n)
      await devnet.close()
      // A crash mid-append leaves half a line behind.
      appendFileSync(join(dir, 'devnet-journal.jsonl'), '{"method":"hardhat_setBal')
      const restarted = await createDevnet({ dataDir: dir })
      expect(
        BigInt(await restarted.provider.request({ method: 'eth_getBalance', params: [target, 'latest'] })),
      ).toBe(5n)
      await restarted.faucet(target, 1n)
      await restarted.close()
      const third = await createDevnet({ dataDir: dir })
      expect(
        BigInt(await third.provider.request({ method: 'eth_getBalance', params: [target, 'latest'] })),
      ).toBe(6n)
      await third.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
