import {
  ExecutionRevertedError,
  HttpRequestError,
  InsufficientFundsError,
  InternalRpcError,
  InvalidInputRpcError,
  LimitExceededRpcError,
  RpcRequestError,
  UnknownRpcError,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { isTransportError, toChainError } from './toChainError.js'

const rpcError = (code: number) =>
  new RpcRequestError({ body: {}, error: { code, message: 'node says' }, url: 'http://x' })

describe('toChainError', () => {
  it.each([
    ['an HTTP 503', new HttpRequestError({ url: 'http://x', status: 503 })],
    ['an HTTP 429', new HttpRequestError({ url: 'http://x', status: 429 })],
    ['-32005 (viem’s LimitExceededRpcError)', new LimitExceededRpcError(rpcError(-32005))],
    ['a JSON-RPC 429 (viem: unknown)', new UnknownRpcError(rpcError(429))],
    ['QuickNode’s -32007 (viem: unknown)', new UnknownRpcError(rpcError(-32007))],
  ])('%s is chain_unavailable, for a read and for a write', (_what, error) => {
    expect(isTransportError(error)).toBe(true)
    expect(toChainError(error, 'devnet')).toMatchObject({
      code: 'chain_unavailable',
      details: { chain: 'devnet' },
    })
    expect(toChainError(error, 'devnet', { read: true }).code).toBe('chain_unavailable')
  })

  it('keeps the node’s definite answers: a refusal, a revert, a wallet that cannot pay', () => {
    const refused = new InvalidInputRpcError(rpcError(-32000))
    expect(isTransportError(refused)).toBe(false)
    expect(toChainError(refused, 'devnet').code).toBe('transaction_failed')
    expect(toChainError(new ExecutionRevertedError(), 'devnet').code).toBe('transaction_failed')
    // An estimate is a read, and still learns that the wallet cannot pay.
    expect(toChainError(new InsufficientFundsError(), 'devnet', { read: true }).code).toBe(
      'insufficient_funds',
    )
  })
})

describe('toChainError on a write, when nothing else classifies it', () => {
  it('an internal error of the node (-32603) is chain_unavailable: it says nothing of the request', () => {
    const internal = new InternalRpcError(rpcError(-32603))
    expect(toChainError(internal, 'devnet')).toMatchObject({
      code: 'chain_unavailable',
      details: { chain: 'devnet', reason: 'node says' },
    })
  })

  it('a refusal keeps the node’s own words as its reason, not viem’s summary', () => {
    const refused = new InvalidInputRpcError(
      new RpcRequestError({
        body: {},
        error: { code: -32000, message: 'Nonce too high. Expected nonce to be 4 but got 5.' },
        url: 'http://x',
      }),
    )
    expect(toChainError(refused, 'devnet')).toMatchObject({
      code: 'transaction_failed',
      details: { chain: 'devnet', reason: 'Nonce too high. Expected nonce to be 4 but got 5.' },
    })
  })
})
