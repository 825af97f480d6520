import { createPublicClient, createWalletClient, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet } from '../src/index.js'

describe('serve()', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await createDevnet()
  })
  afterAll(() => devnet.close())

  it('answers JSON-RPC over HTTP on 127.0.0.1, single and batched, and stops on close()', async () => {
    const server = await devnet.serve({ port: 0 })
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const transport = http(server.url, { retryCount: 0 })
    const publicClient = createPublicClient({ chain: devnet.chain, transport })
    expect(await publicClient.getChainId()).toBe(31337)

    const wallet = createWalletClient({
      chain: devnet.chain,
      transport,
      account: privateKeyToAccount(devnet.accounts[3]!.privateKey),
    })
    const recipient = '0x0000000000000000000000000000000000C0FFEE'
    const hash = await wallet.sendTransaction({ to: recipient, value: parseEther('0.1') })
    expect((await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 })).status).toBe(
      'success',
    )
    // The in-process provider sees what went through HTTP: it is one chain.
    expect(
      BigInt(await devnet.provider.request({ method: 'eth_getBalance', params: [recipient, 'latest'] })),
    ).toBe(parseEther('0.1'))

    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
        { jsonrpc: '2.0', id: 2, method: 'no_such_method', params: [] },
        { jsonrpc: '2.0', id: 3, method: 'eth_getBalance', params: [recipient, 'latest'] },
      ]),
    })
    const batch = (await response.json()) as { id: number; result?: string; error?: { code: number } }[]
    expect(batch.map((r) => r.id)).toEqual([1, 2, 3])
    expect(batch[0]!.result).toBe('0x7a69')
    expect(batch[1]!.error?.code).toBeTypeOf('number')
    expect(BigInt(batch[2]!.result!)).toBe(parseEther('0.1'))

    await server.close()
    await expect(fetch(server.url, { method: 'POST', body: '{}' })).rejects.toThrow()
  })
})
