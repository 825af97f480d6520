import type { Address } from '@solana/kit'
import { parseJsonWithBigInts, stringifyJsonWithBigInts } from '@solana/rpc-spec-types'
import type { WebSocket } from 'ws'
import type { ChainEvent } from './createLedger.js'
import type { SolanaChain } from './createSolanaChain.js'
import { type AccountConfig, encodeAccount } from './encodeAccount.js'
import { addressParam, configParam } from './rpcParams.js'
import { rpcErrorCodes, SolanaRpcError } from './solanaRpcError.js'

type Subscription =
  | { kind: 'signature'; signature: string }
  | { kind: 'account'; address: Address; config: AccountConfig }
  | { kind: 'slot' }

const unsubscribeMethods: Record<string, Subscription['kind']> = {
  signatureUnsubscribe: 'signature',
  accountUnsubscribe: 'account',
  slotUnsubscribe: 'slot',
}

/**
 * The PubSub half of the RPC on one WebSocket: `signatureSubscribe` (one notification, then the
 * subscription ends, as on a cluster), `accountSubscribe`, `slotSubscribe` and their unsubscribes.
 */
export function attachSubscriptions(socket: WebSocket, chain: SolanaChain): void {
  const subscriptions = new Map<number, Subscription>()
  let nextId = 0
  const send = (message: unknown) => socket.send(stringifyJsonWithBigInts(message))
  const notify = (method: string, subscription: number, result: unknown) =>
    send({ jsonrpc: '2.0', method, params: { result, subscription } })

  function signatureDone(id: number, slot: bigint, err: unknown) {
    subscriptions.delete(id)
    notify('signatureNotification', id, { context: { slot }, value: { err } })
  }

  const stop = chain.ledger.subscribe((event: ChainEvent) => {
    for (const [id, subscription] of subscriptions) {
      if (event.type === 'slot' && subscription.kind === 'slot')
        notify('slotNotification', id, { parent: event.slot - 1n, root: event.slot, slot: event.slot })
      if (event.type !== 'transaction') continue
      if (subscription.kind === 'signature' && subscription.signature === event.record.decoded.signature)
        signatureDone(id, event.record.slot, event.record.err)
      if (subscription.kind === 'account' && event.written.includes(subscription.address)) {
        const account = chain.svm.getAccount(subscription.address)
        const value = account.exists
          ? encodeAccount(chain.svm, account, subscription.config)
          : {
              data: ['', 'base64'],
              executable: false,
              lamports: 0n,
              owner: '11111111111111111111111111111111',
              rentEpoch: 0n,
              space: 0n,
            }
        notify('accountNotification', id, { context: { slot: event.record.slot }, value })
      }
    }
  })
  socket.on('close', stop)

  function subscribe(method: string, params: readonly unknown[]): number {
    const id = nextId++
    if (method === 'slotSubscribe') subscriptions.set(id, { kind: 'slot' })
    else if (method === 'accountSubscribe') {
      const config = configParam<AccountConfig>(params, 1)
      subscriptions.set(id, { kind: 'account', address: addressParam(params, 0), config })
    } else if (method === 'signatureSubscribe') {
      const signature = String(params[0])
      subscriptions.set(id, { kind: 'signature', signature })
      // Already landed: notify at once (after the reply that names the subscription).
      const landed = chain.ledger.get(signature)
      if (landed) queueMicrotask(() => signatureDone(id, landed.slot, landed.err))
    } else throw new SolanaRpcError({ code: rpcErrorCodes.methodNotFound, message: 'Method not found' })
    return id
  }

  socket.on('message', (data) => {
    let request: { id?: unknown; method?: unknown; params?: unknown }
    try {
      request = parseJsonWithBigInts(String(data)) as typeof request
    } catch {
      return send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } })
    }
    // `@solana/kit` pings an idle socket with a request that has no id: nothing to answer.
    if (request.id === undefined) return
    const params = Array.isArray(request.params) ? request.params : []
    const method = String(request.method)
    try {
      const kind = unsubscribeMethods[method]
      if (kind) {
        const id = Number(params[0])
        const known = subscriptions.get(id)?.kind === kind
        subscriptions.delete(id)
        return send({ jsonrpc: '2.0', id: request.id, result: known })
      }
      send({ jsonrpc: '2.0', id: request.id, result: subscribe(method, params) })
    } catch (error) {
      const { code = -32603, message = 'Internal error' } = error as { code?: number; message?: string }
      send({ jsonrpc: '2.0', id: request.id, error: { code, message } })
    }
  })
}
