import { type Address, type Hex, type TransactionReceipt, TransactionReceiptNotFoundError } from 'viem'
import type { ChainHandle } from '../chain/types.js'
import type { Signature } from './types.js'

/**
 * What the chain says of a signed tx: mined under one of its signatures (`receipt`); its nonce
 * `taken` by another tx (the account's mined nonce passed it and none of its signatures is mined);
 * `open` (neither yet); or `unknown` (the node could not be asked).
 */
export type ChainVerdict =
  | { kind: 'mined'; receipt: TransactionReceipt }
  | { kind: 'taken' }
  | { kind: 'open' }
  | { kind: 'unknown' }

/**
 * Asks the chain about a signed tx by hash (each signature, the newest first) and by nonce. The
 * mined nonce is read first: a receipt looked for after it cannot miss a tx mined in between, so
 * `taken` never hides one of ours. Any error of a read is `unknown`, never a verdict.
 * @example const verdict = await chainVerdict(chain, record)
 */
export async function chainVerdict(
  chain: ChainHandle,
  record: { from: Address } & Pick<Signature, 'nonce' | 'hash' | 'replaced'>,
): Promise<ChainVerdict> {
  try {
    const minedNonce = await chain.client.getTransactionCount({ address: record.from, blockTag: 'latest' })
    const hashes: Hex[] = [record.hash, ...(record.replaced ?? []).map((version) => version.hash).reverse()]
    for (const hash of hashes) {
      const receipt = await chain.client
        .getTransactionReceipt({ hash })
        .catch((error: unknown) =>
          error instanceof TransactionReceiptNotFoundError ? undefined : Promise.reject(error),
        )
      if (receipt) return { kind: 'mined', receipt }
    }
    return { kind: minedNonce > record.nonce ? 'taken' : 'open' }
  } catch {
    return { kind: 'unknown' }
  }
}
