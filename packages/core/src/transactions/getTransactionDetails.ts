import { formatEther, type Hex } from 'viem'
import type { z } from 'zod'
import { toChainError } from '../chain/toChainError.js'
import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import { decodeCall, decodeEvent } from './decodeActivity.js'
import { findRequestedTransaction } from './getTransaction.js'
import { hashLinksOf } from './hashLinksOf.js'
import { knownContracts } from './knownAbis.js'
import { toTransactionView } from './toTransactionView.js'
import type { getTransactionSchema, TransactionDetails } from './transactionSchemas.js'
import { isMinedUserOperation } from './types.js'

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
  const transaction = {
    ...toTransactionView(record, chain.explorerUrl),
    ...(await hashLinksOf(ctx, principal, record)),
  }
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
    receipt: isMinedUserOperation(record)
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
