import { erc20Abi, parseEther, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { aggregatorV3Abi, createDevnet, type Devnet, lidoAbi } from '../src/index.js'
import { clientsFor } from './clients.js'

describe('staking, price feeds, faucet and accounts', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await createDevnet()
  })
  afterAll(() => devnet.close())

  it('stakes ETH through submit() and credits a stETH balance', async () => {
    const { publicClient, wallet } = clientsFor(devnet)
    const staker = wallet(1)
    const lido = { address: devnet.addressBook.staking.lido, abi: lidoAbi } as const
    const hash = await staker.writeContract({
      ...lido,
      functionName: 'submit',
      args: [staker.account.address],
      value: parseEther('2'),
    })
    expect((await publicClient.getTransactionReceipt({ hash })).status).toBe('success')
    expect(
      await publicClient.readContract({ ...lido, functionName: 'balanceOf', args: [staker.account.address] }),
    ).toBe(parseEther('2'))
    expect(await publicClient.readContract({ ...lido, functionName: 'getTotalPooledEther' })).toBe(
      parseEther('2'),
    )
    expect(await publicClient.readContract({ ...lido, functionName: 'symbol' })).toBe('stETH')
  })

  it('reads Chainlink-style prices', async () => {
    const { publicClient } = clientsFor(devnet)
    const feed = { address: devnet.addressBook.priceFeeds['ETH/USD'], abi: aggregatorV3Abi } as const
    const [roundId, answer, , updatedAt] = await publicClient.readContract({
      ...feed,
      functionName: 'latestRoundData',
    })
    expect(answer).toBe(3000_00000000n)
    expect(roundId).toBe(1n)
    expect(updatedAt).toBeGreaterThan(0n)
    expect(await publicClient.readContract({ ...feed, functionName: 'decimals' })).toBe(8)
    expect(await publicClient.readContract({ ...feed, functionName: 'description' })).toBe('ETH/USD')
    const usdc = devnet.addressBook.priceFeeds['USDC/USD']
    const [, usdcAnswer] = await publicClient.readContract({
      address: usdc,
      abi: aggregatorV3Abi,
      functionName: 'latestRoundData',
    })
    expect(usdcAnswer).toBe(1_00000000n)
  })

  it('funds any address with ETH and test tokens', async () => {
    const { publicClient } = clientsFor(devnet)
    const stranger = privateKeyToAccount(generatePrivateKey()).address
    await devnet.faucet(stranger, parseEther('5'))
    await devnet.faucet(stranger, parseEther('1'))
    expect(await publicClient.getBalance({ address: stranger })).toBe(parseEther('6'))
    const usdc = devnet.addressBook.tokens.find((t) => t.symbol === 'USDC')!
    await devnet.mintToken('USDC', stranger, parseUnits('250', 6))
    expect(
      await publicClient.readContract({
        address: usdc.address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [stranger],
      }),
    ).toBe(parseUnits('250', 6))
    await expect(devnet.mintToken('NOPE', stranger, 1n)).rejects.toThrow(/not a devnet test token/)
  })

  it('pre-funds the ten mnemonic accounts and leaves account 0 at nonce 0', async () => {
    const { publicClient } = clientsFor(devnet)
    expect(devnet.accounts).toHaveLength(10)
    const fresh = await createDevnet({ accounts: 2 })
    try {
      expect(fresh.accounts).toHaveLength(2)
    } finally {
      await fresh.close()
    }
    const first = devnet.accounts[0]!.address
    expect(await publicClient.getTransactionCount({ address: first })).toBe(0)
    expect(await publicClient.getBalance({ address: devnet.accounts[9]!.address })).toBe(parseEther('10000'))
    expect(await devnet.provider.request({ method: 'eth_accounts' })).toEqual(
      devnet.accounts.map((a) => a.address.toLowerCase()),
    )
    expect(await publicClient.getChainId()).toBe(31337)
  })
})
