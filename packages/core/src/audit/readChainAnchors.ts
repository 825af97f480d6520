import { type Address, createPublicClient, http, type PublicClient } from 'viem'
import { type AnchoredHead, decodeAnchorData } from './auditAnchorData.js'

/** An anchor found on the chain: the head it carries, its transaction and how deep it is. */
export type ChainAnchor = AnchoredHead & {
  transactionHash: string
  blockNumber: bigint
  confirmations: bigint
}

export type ReadChainAnchorsParameters = {
  /** A JSON-RPC URL of the chain, or a client on it. */
  rpc: string | Pick<PublicClient, 'getBlock' | 'getBlockNumber'>
  /** The anchor account: anchors are its self-sends carrying `encodeAnchorData`. */
  address: Address
  /** The first block to read (default 0): the block the anchor account was funded in, say. */
  fromBlock?: bigint | undefined
}

/**
 * Every anchor the account published on the chain's canonical blocks, oldest first, read block by
 * block (a plain node keeps no index by sender): what `agentwallet audit verify --anchor-rpc` checks
 * a trail against. A reorged-out anchor is not on the canonical chain, so it is not read.
 * @example const anchors = await readChainAnchors({ rpc: 'http://127.0.0.1:8545', address })
 */
export async function readChainAnchors({
  rpc,
  address,
  fromBlock = 0n,
}: ReadChainAnchorsParameters): Promise<ChainAnchor[]> {
  const client = typeof rpc === 'string' ? createPublicClient({ transport: http(rpc, { batch: true }) }) : rpc
  const latest = await client.getBlockNumber()
  const account = address.toLowerCase()
  const anchors: ChainAnchor[] = []
  for (let start = fromBlock; start <= latest; start += 50n) {
    const numbers: bigint[] = []
    for (let n = start; n <= latest && n < start + 50n; n++) numbers.push(n)
    const blocks = await Promise.all(
      numbers.map((blockNumber) => client.getBlock({ blockNumber, includeTransactions: true })),
    )
    for (const block of blocks)
      for (const tx of block.transactions) {
        if (tx.from.toLowerCase() !== account || tx.to?.toLowerCase() !== account) continue
        const anchored = decodeAnchorData(tx.input)
        if (anchored)
          anchors.push({
            ...anchored,
            transactionHash: tx.hash,
            blockNumber: block.number,
            confirmations: latest - block.number + 1n,
          })
      }
  }
  return anchors
}
