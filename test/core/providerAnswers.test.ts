import { createAgentWallet, memoryStorage } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { encodeFunctionData, parseAbi } from 'viem'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startDevnet } from '../helpers/devnetAgentWallet.js'

// A node's answer through an EIP-1193 provider is taken as it is over HTTP: a revert (JSON-RPC code 3)
// is asked once, never retried as an unknown failure, while an internal error is still retried.
let devnet: Devnet
const asked: string[] = []
let failNext: { code: number; message: string } | undefined

beforeAll(async () => {
  devnet = await startDevnet()
})
afterAll(async () => devnet?.close())

async function readerOver() {
  const provider = {
    request: async (args: { method: string; params?: unknown }) => {
      asked.push(args.method)
      if (failNext && args.method === 'eth_call') throw Object.assign(new Error(failNext.message), failNext)
      return devnet.provider.request(args as never)
    },
  }
  const aw = await createAgentWallet({
    chains: { devnet: { provider, chainId: devnet.chain.id, contracts: devnet.addressBook } },
    storage: memoryStorage(),
    defaultTenantRules: [],
    track: false,
  })
  return { aw, client: aw.context.chains.get('devnet')!.client }
}

it('asks a reverting call once and answers it as a revert', async () => {
  const { aw, client } = await readerOver()
  try {
    const token = usdcOf(devnet)
    // transfer from an account with no tokens: the token reverts.
    const data = encodeFunctionData({
      abi: parseAbi(['function transfer(address,uint256) returns (bool)']),
      functionName: 'transfer',
      args: [devnet.accounts[5]!.address, 10n ** 30n],
    })
    asked.length = 0
    const failure = await client
      .call({ to: token, data, account: devnet.accounts[6]!.address })
      .catch((e) => e)
    expect(failure).toBeInstanceOf(Error)
    expect((failure as Error).message).toMatch(/revert/i)
    expect(asked.filter((method) => method === 'eth_call')).toHaveLength(1)
  } finally {
    await aw.close()
  }
})

it('still retries an internal error (-32603), as viem does over HTTP', async () => {
  const { aw, client } = await readerOver()
  try {
    asked.length = 0
    failNext = { code: -32603, message: 'internal error' }
    const failure = await client.call({ to: usdcOf(devnet), data: '0x18160ddd' }).catch((e) => e)
    expect(failure).toBeInstanceOf(Error)
    expect(asked.filter((method) => method === 'eth_call').length).toBeGreaterThan(1)
  } finally {
    failNext = undefined
    await aw.close()
  }
})

function usdcOf(chain: Devnet) {
  return chain.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
}
