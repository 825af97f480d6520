import {
  ExecutionRevertedError,
  FeeCapTooHighError,
  FeeCapTooLowError,
  InsufficientFundsError,
  IntrinsicGasTooHighError,
  IntrinsicGasTooLowError,
  InvalidInputRpcError,
  InvalidParamsRpcError,
  NonceMaxValueError,
  NonceTooHighError,
  NonceTooLowError,
  TipAboveFeeCapError,
  TransactionRejectedRpcError,
  TransactionTypeNotSupportedError,
  BaseError as ViemBaseError,
} from 'viem'

/**
 * The answers by which a node refuses a raw transaction for what it is: invalid input (-32000: nonce
 * too low or too high, underpriced, insufficient funds, intrinsic gas, "already known"), invalid
 * params (-32602: a bad signature or encoding), rejected (-32003), and viem's node errors naming
 * those causes. A rate limit (-32005), an internal error (-32603), an unknown code or no answer at
 * all says nothing about the tx: the node may have taken it.
 */
const refusals = [
  InvalidInputRpcError,
  InvalidParamsRpcError,
  TransactionRejectedRpcError,
  NonceTooLowError,
  NonceTooHighError,
  NonceMaxValueError,
  InsufficientFundsError,
  IntrinsicGasTooHighError,
  IntrinsicGasTooLowError,
  FeeCapTooHighError,
  FeeCapTooLowError,
  TipAboveFeeCapError,
  TransactionTypeNotSupportedError,
  ExecutionRevertedError,
]

/**
 * True when the node definitely refused a raw transaction (classified by viem's error classes,
 * never by text); false when its answer was lost or says nothing about the tx (a transport error, a
 * timeout, a rate limit, an internal error): then the node may have the tx, and it is not failed.
 * @example if (!isRefusal(error)) return record // unknown: the tracker asks the chain later
 */
export function isRefusal(error: unknown): boolean {
  if (!(error instanceof ViemBaseError)) return false
  return error.walk((cause) => refusals.some((type) => cause instanceof type)) !== null
}
