import { createPublicClient, custom, HttpRequestError, TimeoutError } from 'viem'
import { describe, expect, it } from 'vitest'
import { isRefusal } from './isRefusal.js'

/** The error viem throws for a raw tx a node answers with this JSON-RPC error (wrapped as in use). */
async function answeredWith(code: number, message: string): Promise<unknown> {
  const client = createPublicClient({
    transport: custom(
      {
        request: async () => {
          throw Object.assign(new Error(message), { code })
        },
      },
      { retryCount: 0 },
    ),
  })
  return client.sendRawTransaction({ serializedTransaction: '0x02' }).catch((error: unknown) => error)
}

describe('isRefusal', () => {
  it.each([
    [-32000, 'nonce too low'],
    [-32000, 'replacement transaction underpriced'],
    [-32003, 'rejected by policy of this node'],
    [-32602, 'invalid sender'],
  ])('is true for the node’s answer about the tx itself (%i %s)', async (code, message) => {
    expect(isRefusal(await answeredWith(code, message))).toBe(true)
  })

  it.each([
    [-32005, 'request rate exceeded'],
    [-32603, 'internal error'],
    [-32002, 'resource unavailable'],
    [429, 'too many requests'],
    [-32099, 'a code of its own'],
  ])('is false for an answer that says nothing about the tx (%i %s)', async (code, message) => {
    expect(isRefusal(await answeredWith(code, message))).toBe(false)
  })

  it('is false when no answer came, and for what is not a viem error', () => {
    expect(isRefusal(new HttpRequestError({ url: 'http://node', status: 503 }))).toBe(false)
    expect(isRefusal(new TimeoutError({ body: {}, url: 'http://node' }))).toBe(false)
    expect(isRefusal(Object.assign(new Error('nonce too low'), { code: -32000 }))).toBe(false)
  })
})
