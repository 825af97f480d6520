import { type Address, type Hex, hashTypedData, zeroAddress } from 'viem'

/** The EIP-712 type Safe v1.x signs (`SAFE_TX_TYPEHASH`). */
export const safeTxTypes = {
  SafeTx: [
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'data', type: 'bytes' },
    { name: 'operation', type: 'uint8' },
    { name: 'safeTxGas', type: 'uint256' },
    { name: 'baseGas', type: 'uint256' },
    { name: 'gasPrice', type: 'uint256' },
    { name: 'gasToken', type: 'address' },
    { name: 'refundReceiver', type: 'address' },
    { name: 'nonce', type: 'uint256' },
  ],
} as const

/** A SafeTx as stored: integers as decimal strings. Gas refund fields are always zero here. */
export type StoredSafeTx = {
  to: Address
  value: string
  data: Hex
  operation: 0 | 1
  safeTxGas: string
  baseGas: string
  gasPrice: string
  gasToken: Address
  refundReceiver: Address
  nonce: string
}

/** A SafeTx with no gas refund (the executor pays gas), as Safe's own UI builds by default. */
export function newSafeTx(fields: {
  to: Address
  value: bigint
  data: Hex
  operation: 0 | 1
  nonce: bigint
}): StoredSafeTx {
  return {
    to: fields.to,
    value: fields.value.toString(),
    data: fields.data,
    operation: fields.operation,
    safeTxGas: '0',
    baseGas: '0',
    gasPrice: '0',
    gasToken: zeroAddress,
    refundReceiver: zeroAddress,
    nonce: fields.nonce.toString(),
  }
}

/** The typed-data message of a stored SafeTx (bigints back). */
export function safeTxMessage(tx: StoredSafeTx) {
  return {
    to: tx.to,
    value: BigInt(tx.value),
    data: tx.data,
    operation: tx.operation,
    safeTxGas: BigInt(tx.safeTxGas),
    baseGas: BigInt(tx.baseGas),
    gasPrice: BigInt(tx.gasPrice),
    gasToken: tx.gasToken,
    refundReceiver: tx.refundReceiver,
    nonce: BigInt(tx.nonce),
  }
}

/** The typed data an owner signs for `tx` on the Safe at `safe` (domain: chainId + verifyingContract, as Safe ≥1.3). */
export function safeTxTypedData(chainId: number, safe: Address, tx: StoredSafeTx) {
  return {
    domain: { chainId, verifyingContract: safe },
    types: safeTxTypes,
    primaryType: 'SafeTx' as const,
    message: safeTxMessage(tx),
  }
}

/**
 * The safeTxHash exactly as Safe's `getTransactionHash` computes it.
 * @example const hash = safeTxHash(31337, safe, tx)
 */
export function safeTxHash(chainId: number, safe: Address, tx: StoredSafeTx): Hex {
  return hashTypedData(safeTxTypedData(chainId, safe, tx))
}
