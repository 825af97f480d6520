import { formatEther, type Hex } from 'viem'
import { z } from 'zod'
import { toChainError } from '../chain/toChainError.js'
import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import { out } from '../schemas/out.js'
import { decodeCall, decodedCallSchema, decodedEventSchema, decodeEvent } from './decodeActivity.js'
import { findRequestedTransaction, type getTransactionSchema } from './getTransaction.js'
import { knownContracts } from './knownAbis.js'
import { toTransactionView, transactionViewSchema } from './toTransactionView.js'
import { isMinedOperation } from './types.js'

/** A transaction as an explorer page shows it: what it called, what it cost, what it emitted. */
export const transactionDetailsSchema = z.object({
  transaction: transactionViewSchema,
  /** The EVM call: its target (the address book's name for it), value in ETH and wei, calldata decoded. */
  call: z.object({
    to: out.address,
    contract: z.string().nullable(),
    value: out.decimal,
    valueWei: out.baseUnits,
    data: out.hex,
    decoded: decodedCallSchema.nullable(),
  }),
  /** Null until the transaction is mined. */
  block: z.object({ number: z.number().int(), timestamp: out.timestamp }).nullable(),
  receipt: z
    .object({
      status: z.enum(['success', 'reverted']),
      gasUsed: out.baseUnits,
      effectiveGasPrice: out.baseUnits.describe('wei per gas'),
      fee: out.decimal.describe('gasUsed × effectiveGasPrice, in ETH'),
    })
    .nullable(),
  /** The receipt's logs, each decoded where a known ABI has its event. */
  events: z.array(decodedEventSchema),
})
export type TransactionDetails = z.infer<typeof transactionDetailsSchema>

/**
 * One transaction with its call decoded and its receipt's events (ERC-20, Uniswap, Safe, ENS,
 * ERC-8004, Lido ABIs), for the dashboard's transaction page, the devnet's explorer.
 * @example const { call, events } = await getTransactionDetails(ctx, approver, { transaction: hash })
 */
export async function getTransactionDetails(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof getTransactionSchema>,
): Promise<TransactionDetails> {
  const record = await findRequestedTransaction(ctx, principal, input)
  const chain = ctx.chains.get(record.chain)
  const known = knownContracts(chain.contracts)
  const data: Hex = record.call.data ?? '0x'
  const target = known.get(record.call.to.toLowerCase())
  const call = {
    to: record.call.to,
    contract: target?.label ?? null,
    value: formatEther(BigInt(record.call.value)),
    valueWei: record.call.value,
    data,
    decoded: data === '0x' ? null : decodeCall(data, target),
  }
  const transaction = toTransactionView(record, chain.explorerUrl)
  if (!record.hash || record.blockNumber === undefined)
    return { transaction, call, block: null, receipt: null, events: [] }
  const [receipt, block] = await Promise.all([
    chain.client.getTransactionReceipt({ hash: record.hash }),
    chain.client.getBlock({ blockNumber: BigInt(record.blockNumber) }),
  ]).catch((error: unknown) => {
    throw toChainError(error, chain.name, { read: true })
  })
  return {
    transaction,
    call,
    block: {
      number: Number(block.number),
      timestamp: new Date(Number(block.timestamp) * 1000).toISOString(),
    },
    receipt: isMinedOperation(record)
      ? operationFee(receipt.status, BigInt(record.gasUsed), BigInt(record.gasCost))
      : {
          status: receipt.status,
          gasUsed: receipt.gasUsed.toString(),
          effectiveGasPrice: receipt.effectiveGasPrice.toString(),
          fee: formatEther(receipt.gasUsed * receipt.effectiveGasPrice),
        },
    events: receipt.logs.map((log) => decodeEvent(log, known.get(log.address.toLowerCase()))),
  }
}

/** A smart wallet's op: the gas it used and paid (its `UserOperationEvent`), not its carrier's. */
function operationFee(status: 'success' | 'reverted', gasUsed: bigint, gasCost: bigint) {
  return {
    status,
    gasUsed: gasUsed.toString(),
    effectiveGasPrice: (gasUsed === 0n ? 0n : gasCost / gasUsed).toString(),
    fee: formatEther(gasCost),
  }
}
