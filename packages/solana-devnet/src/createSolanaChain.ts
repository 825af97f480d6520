import {
  getBase64Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageEncoder,
  type Signature,
  type Transaction,
} from '@solana/kit'
import { Clock, FailedTransactionMetadata, type TransactionMetadata } from 'litesvm'
import { blockhashAt } from './blockhashAt.js'
import { computeFee, computeUnitPrice } from './computeFee.js'
import type { Genesis } from './createGenesis.js'
import { createLedger, type TransactionRecord } from './createLedger.js'
import { type DecodedTransaction, decodeWireTransaction } from './decodeWireTransaction.js'
import { preflightFailure, signatureFailure } from './preflightFailure.js'
import { readBalances } from './readBalances.js'
import { type SimulationResult, simulateOn } from './simulateOn.js'
import { toInnerInstructions } from './toInnerInstructions.js'
import { landsDespite, toTransactionError } from './toTransactionError.js'

/** Blocks a blockhash stays usable: `lastValidBlockHeight` = its height + 150, as on a real cluster. */
export const blockhashLifetime = 150n
const slotsPerEpoch = 432_000n

/** One change of the chain, in the order it happened; replaying the entries rebuilds the chain. */
export type ChainJournalEntry =
  | { type: 'transaction'; transaction: string; signature: string; slot: bigint; blockTime: bigint }
  | { type: 'advance'; blocks: bigint; blockTime: bigint }

export type SolanaChain = ReturnType<typeof createSolanaChain>

const now = () => BigInt(Math.floor(Date.now() / 1000))

export type SolanaChainOptions = {
  /** Told every change, in order (the journal). */
  record?: ((entry: ChainJournalEntry) => void) | undefined
  /**
   * Milliseconds a slot stays open: transactions landing within it share its block, as on a cluster
   * (400 ms there). 0 (the default): every landed transaction opens a block of its own.
   */
  slotMs?: number | undefined
}

/**
 * The chain over LiteSVM: blocks opened by landing transactions (one each, or one per `slotMs`), a new
 * blockhash per block, blockhashes that expire 150 blocks on, the ledger of what landed, and every
 * change reported to `record` (the journal). Nothing ticks: a quiet chain stays at its height.
 */
export function createSolanaChain(
  { svm }: Genesis,
  { record = () => {}, slotMs = 0 }: SolanaChainOptions = {},
) {
  const ledger = createLedger()
  let height = 0n
  let blockTimeOfHeight = 0n
  /** Wall-clock ms the current block was opened (0: long ago, the next transaction opens one). */
  let openedAt = 0
  let replaying = false
  const journal = (entry: ChainJournalEntry) => {
    if (!replaying) record(entry)
  }
  const latestBlockhash = () => ({
    blockhash: blockhashAt(height),
    lastValidBlockHeight: height + blockhashLifetime,
  })
  /** Recent blockhashes by height; older ones are forgotten, as a node forgets them. */
  const blockhashes = new Map<string, bigint>([[blockhashAt(0n), 0n]])

  function setClock(slot: bigint, blockTime: bigint) {
    const epoch = slot / slotsPerEpoch
    svm.setClock(new Clock(slot, blockTime, epoch, epoch, blockTime))
  }

  function newBlock(blockTime: bigint) {
    height += 1n
    blockTimeOfHeight = blockTime
    openedAt = replaying ? 0 : Date.now()
    blockhashes.set(blockhashAt(height), height)
    blockhashes.delete(blockhashAt(height - 2n * blockhashLifetime))
    setClock(height, blockTime)
    ledger.emit({ type: 'slot', slot: height })
  }

  /** The slot a transaction sent now lands in: the open one, or a new one. */
  function nextSlot(): bigint {
    return slotMs > 0 && Date.now() - openedAt < slotMs ? height : height + 1n
  }

  /** The height a blockhash was issued at, while a transaction landing in `slot` may still use it. */
  function blockhashHeight(blockhash: string, slot = nextSlot()): bigint | undefined {
    const issued = blockhashes.get(blockhash)
    return issued !== undefined && slot <= issued + blockhashLifetime ? issued : undefined
  }

  /**
   * Executes a transaction in `slot` (the current block or a new one); `landed` is undefined when it
   * failed before landing (nothing changed).
   */
  function land(decoded: DecodedTransaction, wire: Uint8Array, slot: bigint, time: bigint) {
    const opens = slot > height
    const blockTime = opens ? time : blockTimeOfHeight
    const pre = readBalances(svm, decoded.accountKeys)
    if (opens) setClock(slot, blockTime)
    const result = svm.sendTransaction(decoded.transaction)
    const failed = result instanceof FailedTransactionMetadata
    const err = failed ? toTransactionError(result.err()) : null
    if (err !== null && !landsDespite(err)) {
      if (opens) setClock(height, blockTimeOfHeight)
      return { landed: undefined, err }
    }
    if (opens) newBlock(blockTime)
    const meta: TransactionMetadata = failed ? result.meta() : result
    const post = readBalances(svm, decoded.accountKeys)
    const landed: TransactionRecord = {
      decoded,
      wire,
      slot: height,
      blockTime,
      err,
      fee: computeFee(decoded.message),
      preBalances: pre.balances,
      postBalances: post.balances,
      preTokenBalances: pre.tokenBalances,
      postTokenBalances: post.tokenBalances,
      logMessages: meta.logs(),
      innerInstructions: toInnerInstructions(meta),
      computeUnitsConsumed: meta.computeUnitsConsumed(),
      computeUnitPrice: computeUnitPrice(decoded.message),
    }
    ledger.add(landed)
    const written = decoded.accountKeys.filter((_, index) => decoded.writable[index])
    ledger.emit({ type: 'transaction', record: landed, written })
    journal({
      type: 'transaction',
      transaction: getBase64Decoder().decode(wire),
      signature: decoded.signature,
      slot: height,
      blockTime,
    })
    return { landed, err }
  }

  return {
    svm,
    ledger,
    height: () => height,
    latestBlockhash,
    isBlockhashValid: (blockhash: string) => blockhashHeight(blockhash) !== undefined,

    /**
     * `sendTransaction`: refuses what a node refuses (a bad signature; with preflight, any failure),
     * drops what could not land (skipPreflight: the signature is answered, no status ever appears),
     * lands the rest in a new block. Resolves with the signature.
     */
    send(wire: Uint8Array, { skipPreflight = false } = {}): Signature {
      const decoded = decodeWireTransaction(wire)
      if (ledger.get(decoded.signature)) {
        if (skipPreflight) return decoded.signature
        throw preflightFailure('AlreadyProcessed')
      }
      const slot = nextSlot()
      if (blockhashHeight(decoded.blockhash, slot) === undefined) {
        if (skipPreflight) return decoded.signature
        throw preflightFailure('BlockhashNotFound')
      }
      if (!skipPreflight) {
        const simulation = simulateOn(svm, decoded, true)
        if (simulation.err !== null)
          throw preflightFailure(simulation.err, simulation.logs, simulation.unitsConsumed)
      }
      const { err } = land(decoded, wire, slot, now())
      if (err === 'SignatureFailure') throw signatureFailure()
      return decoded.signature
    },

    /** `simulateTransaction` against the current state; nothing is kept. */
    simulate(wire: Uint8Array, { sigVerify = false, replaceRecentBlockhash = false } = {}): SimulationResult {
      let decoded = decodeWireTransaction(wire)
      if (replaceRecentBlockhash) {
        const message = { ...decoded.message, lifetimeToken: blockhashAt(height) }
        const messageBytes = getCompiledTransactionMessageEncoder().encode(message)
        const transaction = {
          ...decoded.transaction,
          messageBytes: messageBytes as Transaction['messageBytes'],
        }
        decoded = { ...decoded, transaction, blockhash: message.lifetimeToken }
        const result = simulateOn(svm, decoded, false)
        return { ...result, replacementBlockhash: latestBlockhash() }
      }
      if (blockhashHeight(decoded.blockhash) === undefined) {
        return {
          err: 'BlockhashNotFound',
          logs: [],
          unitsConsumed: 0n,
          returnData: null,
          postAccounts: [],
          fee: computeFee(decoded.message),
          replacementBlockhash: null,
        }
      }
      return simulateOn(svm, decoded, sigVerify)
    },

    /** Mines `blocks` empty blocks: the way to let blockhashes expire on a quiet devnet. */
    advance(blocks: bigint, blockTime = now()) {
      for (let index = 0n; index < blocks; index++) newBlock(blockTime)
      if (blocks > 0n) journal({ type: 'advance', blocks, blockTime })
    },

    /** Re-applies journaled changes to a chain fresh from the same genesis; a divergence throws. */
    replay(entries: readonly ChainJournalEntry[]) {
      replaying = true
      try {
        replayEntries(entries)
      } finally {
        replaying = false
      }
    },
  }

  function replayEntries(entries: readonly ChainJournalEntry[]) {
    for (const [index, entry] of entries.entries()) {
      if (entry.type === 'advance') {
        for (let block = 0n; block < entry.blocks; block++) newBlock(entry.blockTime)
        continue
      }
      const wire = new Uint8Array(getBase64Encoder().encode(entry.transaction))
      const decoded = decodeWireTransaction(wire)
      const fits = entry.slot === height || entry.slot === height + 1n
      const replayed = fits ? land(decoded, wire, entry.slot, entry.blockTime).landed : undefined
      if (!replayed || decoded.signature !== entry.signature)
        throw new Error(`solana devnet journal replay diverged at entry ${index + 1} (${entry.signature})`)
    }
  }
}
