import type { ChainHandle } from './types.js'

/** The reads under way on each chain's client, by key: the clients belong to one context each. */
const inFlightOf = new WeakMap<object, Map<string, Promise<unknown>>>()

/**
 * The answer to a read of `chain`'s node already asked under `key` and not yet answered, else
 * `read()`'s, which concurrent callers with the same key then share. Only for reads whose callers take
 * any answer from about now, such as the ones a send makes ahead of its wallet's lock (fees, gas, a
 * recipient's code): 20 concurrent sends ask for the fees once, not 20 times. Never for a read that
 * must follow a write its caller made (a balance, a nonce, a receipt): a shared read may have been
 * asked just before that write.
 * @example const fees = await sharedRead(chain, 'fees', () => chain.client.estimateFeesPerGas())
 */
export function sharedRead<T>(chain: ChainHandle, key: string, read: () => Promise<T>): Promise<T> {
  let inFlight = inFlightOf.get(chain.client)
  if (!inFlight) {
    inFlight = new Map()
    inFlightOf.set(chain.client, inFlight)
  }
  const asked = inFlight.get(key) as Promise<T> | undefined
  if (asked) return asked
  const reads = inFlight
  const answer = read()
  reads.set(key, answer)
  const done = () => {
    if (reads.get(key) === answer) reads.delete(key)
  }
  answer.then(done, done)
  return answer
}
