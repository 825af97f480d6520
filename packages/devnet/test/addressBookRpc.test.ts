import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDevnet, type Devnet, fetchDevnetAddressBook } from '../src/index.js'

describe('agentwallet_addressBook', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await createDevnet()
  })
  afterAll(() => devnet.close())

  it('a served devnet tells JSON-RPC clients its address book', async () => {
    const server = await devnet.serve({ port: 0 })
    try {
      expect(await fetchDevnetAddressBook(server.url)).toEqual(devnet.addressBook)
    } finally {
      await server.close()
    }
  })

  it('another node on 31337 (method not found) has no devnet address book', async () => {
    const node = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'not found' } }))
    })
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = node.address() as AddressInfo
      expect(await fetchDevnetAddressBook(`http://127.0.0.1:${port}`)).toBeUndefined()
    } finally {
      await new Promise((resolve) => node.close(resolve))
    }
  })
})
