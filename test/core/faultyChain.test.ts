import type { Devnet } from '@agentwallet/devnet'
import {
  createPublicClient,
  custom,
  type EIP1193Provider,
  HttpRequestError,
  http,
  keccak256,
  LimitExceededRpcError,
  parseEther,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { freshAddress, startDevnet } from '../helpers/devnetAgentWallet.js'
import { faults, faultyProvider, faultyRpcServer, readMethod } from '../helpers/faultyChain.js'
import { reorgPoint, reorgTo } from '../helpers/reorg.js'

// The test chain's own harness: faults must do what they say, or every test built on them proves nothing.
let devnet: Devnet
beforeAll(async () => {
  devnet = await startDevnet()
})
afterAll(async () => {
  await devnet?.close()
})

const clientOf = (provider: { request: EIP1193Provider['request'] }) =>
  createPublicClient({ chain: devnet.chain, transport: custom(provider, { retryCount: 0 }) })

async function signedTransfer(nonceOffset = 0) {
  const account = privateKeyToAccount(devnet.accounts[1]?.privateKey ?? '0x')
  const nonce = Number(
    await devnet.provider.request({
      method: 'eth_getTransactionCount',
      params: [account.address, 'pending'],
    }),
  )
  return account.signTransaction({
    chainId: devnet.chain.id,
    nonce: nonce + nonceOffset,
    to: freshAddress(),
    value: parseEther('0.01'),
    gas: 21_000n,
    maxFeePerGas: 10n ** 10n,
    maxPriorityFeePerGas: 1n,
  })
}

describe('faultyProvider', () => {
  test('the same seed gives the same faults; the rates follow the plan', async () => {
    const plan = [{ method: readMethod, fault: faults.rateLimited, probability: 0.3 }]
    const runs = [
      faultyProvider(devnet.provider, { seed: 42, plan }),
      faultyProvider(devnet.provider, { seed: 42, plan }),
    ]
    for (const chain of runs) {
      const client = clientOf(chain.provider)
      for (let i = 0; i < 40; i++) await client.getBalance({ address: freshAddress() }).catch(() => undefined)
    }
    const [first, second] = runs.map((chain) => chain.log.map((entry) => entry.fault ?? '-').join(''))
    expect(first).toBe(second)
    const faulted = runs[0]?.count({ fault: 'rpcError' }) ?? 0
    expect(faulted).toBeGreaterThan(4)
    expect(faulted).toBeLessThan(24)
  })

  test('a rate limit is viem’s LimitExceededRpcError and a 503 its HttpRequestError; neither reaches the node', async () => {
    const chain = faultyProvider(devnet.provider, {
      plan: [
        { method: 'eth_blockNumber', fault: faults.rateLimited, times: 1 },
        { method: 'eth_blockNumber', fault: faults.unavailable, times: 1 },
      ],
    })
    const client = clientOf(chain.provider)
    await expect(client.getBlockNumber()).rejects.toBeInstanceOf(LimitExceededRpcError)
    const unavailable = await client.getBlockNumber().catch((error: unknown) => error)
    expect(unavailable).toBeInstanceOf(HttpRequestError)
    expect((unavailable as HttpRequestError).status).toBe(503)
    expect(typeof (await client.getBlockNumber())).toBe('bigint')
    expect(chain.log.map((entry) => [entry.fault, entry.forwarded])).toEqual([
      ['rpcError', false],
      ['status', false],
      [undefined, true],
    ])
  })

  test('a lost answer is an error to the caller, but the node mined the send', async () => {
    const chain = faultyProvider(devnet.provider, {
      plan: [{ method: 'eth_sendRawTransaction', fault: faults.lostAnswer(faults.unavailable) }],
    })
    const raw = await signedTransfer()
    await expect(
      clientOf(chain.provider).sendRawTransaction({ serializedTransaction: raw }),
    ).rejects.toBeInstanceOf(HttpRequestError)
    const receipt = await clientOf(devnet.provider).getTransactionReceipt({ hash: keccak256(raw) })
    expect(receipt.status).toBe('success')
    expect(chain.log[0]).toMatchObject({ fault: 'status', forwarded: true })
  })

  test('a swallowed send answers its hash and the node never sees it; a refusal is an error, not forwarded', async () => {
    const chain = faultyProvider(devnet.provider, {
      plan: [
        { method: 'eth_sendRawTransaction', fault: faults.swallow, times: 1 },
        { method: 'eth_sendRawTransaction', fault: faults.nonceTooLow, times: 1 },
      ],
    })
    const client = clientOf(chain.provider)
    const raw = await signedTransfer()
    expect(await client.sendRawTransaction({ serializedTransaction: raw })).toBe(keccak256(raw))
    await expect(clientOf(devnet.provider).getTransaction({ hash: keccak256(raw) })).rejects.toThrow()
    await expect(client.sendRawTransaction({ serializedTransaction: raw })).rejects.toMatchObject({
      details: 'nonce too low',
    })
    await expect(clientOf(devnet.provider).getTransaction({ hash: keccak256(raw) })).rejects.toThrow()
    expect(chain.log.map((entry) => entry.forwarded)).toEqual([false, false])
  })
})

describe('faultyRpcServer', () => {
  test('in front of a URL: 503 before forwarding, a lost answer after it, then a healthy node', async () => {
    const node = await devnet.serve({ port: 0 })
    const proxy = await faultyRpcServer(node.url, {
      plan: [
        { method: 'eth_blockNumber', fault: faults.unavailable, times: 1 },
        { method: 'eth_sendRawTransaction', fault: faults.lostAnswer(faults.rateLimited), times: 1 },
        { method: 'eth_chainId', fault: faults.hang, times: 1 },
      ],
    })
    try {
      const client = createPublicClient({ transport: http(proxy.url, { retryCount: 0, timeout: 1_500 }) })
      const unavailable = await client.getBlockNumber().catch((error: unknown) => error)
      expect((unavailable as HttpRequestError).status).toBe(503)
      const raw = await signedTransfer()
      await expect(client.sendRawTransaction({ serializedTransaction: raw })).rejects.toBeInstanceOf(
        LimitExceededRpcError,
      )
      expect((await clientOf(devnet.provider).getTransactionReceipt({ hash: keccak256(raw) })).status).toBe(
        'success',
      )
      await expect(client.getChainId()).rejects.toMatchObject({ name: 'TimeoutError' })
      expect(await client.getChainId()).toBe(devnet.chain.id)
      expect(proxy.count()).toBe(3)
    } finally {
      await proxy.close()
      await node.close()
    }
  })
})

describe('reorg', () => {
  test('a mined transaction leaves the chain and new blocks take its height', async () => {
    const point = await reorgPoint(devnet)
    const raw = await signedTransfer()
    const client = clientOf(devnet.provider)
    const hash = await client.sendRawTransaction({ serializedTransaction: raw })
    const mined = await client.getTransactionReceipt({ hash })
    const { dropped, head } = await reorgTo(point, { mine: 3 })
    expect(dropped.map((block) => block.hash)).toContain(mined.blockHash)
    expect(head).toBe(point.head + 3n)
    await expect(client.getTransactionReceipt({ hash })).rejects.toThrow()
    const replaced = await client.getBlock({ blockNumber: mined.blockNumber })
    expect(replaced.hash).not.toBe(mined.blockHash)
    expect(replaced.transactions).toEqual([])
  })
})
