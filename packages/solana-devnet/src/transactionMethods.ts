import { getCompiledTransactionMessageDecoder } from '@solana/kit'
import { computeFee } from './computeFee.js'
import type { CompiledMessage } from './decodeWireTransaction.js'
import { type AccountConfig, encodeAccount } from './encodeAccount.js'
import { renderTransaction } from './renderTransaction.js'
import { atSlot, type RpcMethod } from './rpcContext.js'
import { addressParam, bytesParam, configParam, integerParam } from './rpcParams.js'
import { invalidParam, rpcErrorCodes, SolanaRpcError } from './solanaRpcError.js'

type SendConfig = { encoding: string; skipPreflight: boolean }
type SimulateConfig = {
  encoding: string
  sigVerify: boolean
  replaceRecentBlockhash: boolean
  accounts: { addresses: string[]; encoding?: AccountConfig['encoding'] }
}

function signatureStatus(slot: bigint, err: unknown) {
  // No forks on the devnet: what landed is final at once.
  return {
    slot,
    confirmations: null,
    err,
    status: err === null ? { Ok: null } : { Err: err },
    confirmationStatus: 'finalized',
  }
}

export const transactionMethods: Record<string, RpcMethod> = {
  sendTransaction: ({ chain }, params) => {
    const config = configParam<SendConfig>(params, 1)
    return chain.send(bytesParam(params, 0, config.encoding), {
      skipPreflight: config.skipPreflight === true,
    })
  },
  simulateTransaction: ({ chain }, params) => {
    const config = configParam<SimulateConfig>(params, 1)
    if (config.sigVerify && config.replaceRecentBlockhash)
      throw invalidParam('sigVerify may not be used with replaceRecentBlockhash')
    const result = chain.simulate(bytesParam(params, 0, config.encoding), {
      sigVerify: config.sigVerify === true,
      replaceRecentBlockhash: config.replaceRecentBlockhash === true,
    })
    const accounts = config.accounts
      ? result.err !== null
        ? null
        : config.accounts.addresses.map((address) => {
            const simulated = result.postAccounts.find((candidate) => candidate.address === address)
            const account = simulated ?? chain.svm.getAccount(addressParam([address], 0))
            if (!('data' in account)) return null
            return encodeAccount(chain.svm, account, { encoding: config.accounts?.encoding ?? 'base64' })
          })
      : null
    return atSlot(chain, {
      err: result.err,
      logs: result.logs,
      accounts,
      unitsConsumed: result.unitsConsumed,
      returnData: result.returnData,
      innerInstructions: null,
      replacementBlockhash: result.replacementBlockhash,
      fee: result.fee,
    })
  },
  getSignatureStatuses: ({ chain }, params) => {
    const signatures = params[0]
    if (!Array.isArray(signatures) || signatures.length > 256)
      throw invalidParam('expected up to 256 signatures')
    return atSlot(
      chain,
      signatures.map((signature) => {
        const record = chain.ledger.get(String(signature))
        return record ? signatureStatus(record.slot, record.err) : null
      }),
    )
  },
  getTransaction: ({ chain }, params) => {
    const config = configParam<{ encoding: string; maxSupportedTransactionVersion: number | bigint }>(
      params,
      1,
    )
    const record = chain.ledger.get(String(params[0]))
    if (!record) return null
    if (record.decoded.message.version === 0 && config.maxSupportedTransactionVersion === undefined) {
      throw new SolanaRpcError({
        code: rpcErrorCodes.unsupportedTransactionVersion,
        message:
          'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
      })
    }
    return renderTransaction(record, config.encoding ?? 'json')
  },
  getSignaturesForAddress: ({ chain }, params) => {
    const config = configParam<{ limit: number | bigint; before: string; until: string }>(params, 1)
    const limit = Number(config.limit ?? 1000)
    const history = [...chain.ledger.forAddress(addressParam(params, 0))].reverse()
    const start = config.before ? history.findIndex((r) => r.decoded.signature === config.before) + 1 : 0
    const result = []
    for (const record of history.slice(start)) {
      if (record.decoded.signature === config.until || result.length >= limit) break
      result.push({
        signature: record.decoded.signature,
        slot: record.slot,
        err: record.err,
        memo: null,
        blockTime: record.blockTime,
        confirmationStatus: 'finalized',
      })
    }
    return result
  },
  requestAirdrop: ({ faucet }, params) => faucet.airdrop(addressParam(params, 0), integerParam(params, 1)),
  getFeeForMessage: ({ chain }, params) => {
    let message: CompiledMessage
    try {
      message = getCompiledTransactionMessageDecoder().decode(
        bytesParam(params, 0, 'base64'),
      ) as CompiledMessage
    } catch {
      throw invalidParam('failed to deserialize message')
    }
    return atSlot(chain, chain.isBlockhashValid(message.lifetimeToken) ? computeFee(message) : null)
  },
  getRecentPrioritizationFees: ({ chain }, params) => {
    const addresses = Array.isArray(params[0]) ? params[0].map(String) : []
    // Per slot, the lowest price among its transactions that write all the addresses asked about.
    const bySlot = new Map<bigint, bigint>()
    for (const record of chain.ledger.recent()) {
      const { accountKeys, writable } = record.decoded
      const writes = (address: string) => accountKeys.some((key, index) => key === address && writable[index])
      if (!addresses.every(writes)) continue
      const lowest = bySlot.get(record.slot)
      if (lowest === undefined || record.computeUnitPrice < lowest)
        bySlot.set(record.slot, record.computeUnitPrice)
    }
    return [...bySlot].map(([slot, prioritizationFee]) => ({ slot, prioritizationFee }))
  },
}
