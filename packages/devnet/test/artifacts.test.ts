import { getContractAddress, keccak256 } from 'viem'
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { devnetAccounts, devnetDeployer, devnetMnemonic } from '../src/index.js'
import { loadArtifact, loadSingletonFactoryDeployment } from '../src/loadArtifact.js'

describe('artifacts and keys', () => {
  it('uses the Uniswap pair bytecode whose hash the router hard-codes', () => {
    const pair = loadArtifact('uniswap-v2-core', 'UniswapV2Pair')
    const initCodeHash = '96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f'
    expect(keccak256(pair.bytecode)).toBe(`0x${initCodeHash}`)
    expect(loadArtifact('uniswap-v2-periphery', 'UniswapV2Router02').bytecode).toContain(initCodeHash)
  })

  it('uses V3 periphery builds that hard-code the canonical pool init-code hash', () => {
    // PoolAddress.POOL_INIT_CODE_HASH; the uniswap test checks the factory's pools sit where it points.
    const initCodeHash = 'e34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54'
    for (const [file, name] of [
      ['uniswap-v3-periphery', 'QuoterV2'],
      ['uniswap-v3-periphery', 'NonfungiblePositionManager'],
      ['uniswap-swap-router', 'SwapRouter02'],
    ] as const)
      expect(loadArtifact(file, name).bytecode).toContain(initCodeHash)
  })

  it('derives the canonical Safe 1.4.1 addresses from the singleton factory', () => {
    const factory = loadSingletonFactoryDeployment()
    expect(factory.address).toBe('0x914d7Fec6aaC8cd542e72Bca78B30650d45643d7')
    const address = (name: string) =>
      getContractAddress({
        opcode: 'CREATE2',
        from: factory.address,
        salt: `0x${'00'.repeat(32)}`,
        bytecode: loadArtifact('safe', name).bytecode,
      })
    expect(address('Safe')).toBe('0x41675C099F32341bf84BFc5382aF534df5C7461a')
    expect(address('SafeProxyFactory')).toBe('0x4e1DCf7AD4e460CfD30791CCC4F9c8a4f820ec67')
  })

  it('lists the keys of the test mnemonic and a deployer outside it', () => {
    devnetAccounts.forEach((account, addressIndex) => {
      const derived = mnemonicToAccount(devnetMnemonic, { addressIndex })
      expect(derived.address).toBe(account.address)
      expect(privateKeyToAccount(account.privateKey).address).toBe(account.address)
    })
    expect(privateKeyToAccount(devnetDeployer.privateKey).address).toBe(devnetDeployer.address)
    expect(devnetAccounts.map((a) => a.address)).not.toContain(devnetDeployer.address)
  })
})
