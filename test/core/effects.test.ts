import { type ChainHandle, predictEffects } from '@agentwallet/core'
import { type Devnet, testMultiTokenAbi, testNftAbi } from '@agentwallet/devnet'
import { type Address, encodeFunctionData, erc20Abi, maxUint256, parseEther, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshAddress, publicClientOf, startDevnet } from '../helpers/devnetAgentWallet.js'
import { chainHandleOf, deployDevnetContract, fundedSigner } from '../helpers/effectsDevnet.js'

let devnet: Devnet
let chain: ChainHandle
let holder: Awaited<ReturnType<typeof fundedSigner>>
let usdc: Address
let nft: Address
let multi: Address

beforeAll(async () => {
  devnet = await startDevnet()
  chain = chainHandleOf(devnet)
  holder = await fundedSigner(devnet)
  usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
  await devnet.mintToken('USDC', holder.address, parseUnits('100', 6))
  nft = await deployDevnetContract(devnet, holder, 'TestNft', ['Devnet Apes', 'APE'])
  multi = await deployDevnetContract(devnet, holder, 'TestMultiToken')
})
afterAll(() => devnet?.close())

describe('predictEffects decodes the standard calls', () => {
  it('reads an ERC-20 transfer sent with no value as the token leaving the wallet, not as a call of 0', async () => {
    const attacker = freshAddress()
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [attacker, 5_000_000n] })
    const effects = await predictEffects(chain, { from: holder.address }, { to: usdc, value: 0n, data })
    expect(effects).toEqual({
      status: 'known',
      source: 'decoded',
      effects: [
        {
          kind: 'out',
          asset: { standard: 'erc20', address: usdc, symbol: 'USDC', decimals: 6 },
          amount: 5_000_000n,
          counterparty: attacker,
        },
      ],
    })
  })

  it('reads approve(attacker, 2^256-1) as an unlimited grant', async () => {
    const attacker = freshAddress()
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [attacker, maxUint256] })
    const effects = await predictEffects(chain, { from: holder.address }, { to: usdc, value: 0n, data })
    expect(effects.status === 'known' && effects.effects).toEqual([
      expect.objectContaining({ kind: 'grant', amount: maxUint256, unlimited: true, counterparty: attacker }),
    ])
  })

  it('tells an ERC-721 approve from an ERC-20 one by asking the contract (ERC-165)', async () => {
    const spender = freshAddress()
    const data = encodeFunctionData({ abi: testNftAbi, functionName: 'approve', args: [spender, 7n] })
    const effects = await predictEffects(chain, { from: holder.address }, { to: nft, value: 0n, data })
    expect(effects.status === 'known' && effects.effects).toEqual([
      {
        kind: 'grant',
        asset: { standard: 'erc721', address: nft, symbol: 'APE', decimals: 0, tokenId: 7n },
        amount: 1n,
        counterparty: spender,
      },
    ])
    void multi
    void testMultiTokenAbi
    void publicClientOf
    void parseEther
  })

  it('decodes a plain transfer to an account without code with no simulation', async () => {
    const to = freshAddress()
    const effects = await predictEffects(chain, { from: holder.address }, { to, value: parseEther('1') })
    expect(effects).toEqual({
      status: 'known',
      source: 'decoded',
      effects: [
        {
          kind: 'out',
          asset: { standard: 'native', address: 'native', symbol: 'ETH', decimals: 18 },
          amount: parseEther('1'),
          counterparty: to,
        },
      ],
    })
  })
})
