import * as z from 'zod/mini'
import type { Address, Hex } from './hexTypes.js'

/**
 * Field schemas of what operations answer (their output schemas). They validate without
 * transforming, so the JSON Schema of an answer says exactly what a client receives.
 * @example const walletSchema = z.object({ address: out.address, createdAt: out.timestamp })
 */
export const out = {
  /** A checksummed EVM address. */
  address: z
    .custom<Address>((value) => typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value))
    .check(z.meta({ type: 'string', pattern: '^0x[0-9a-fA-F]{40}$', description: 'EVM address (EIP-55)' })),
  /** A wallet's address in its family's form: a checksummed EVM address or a base58 Solana one. */
  walletAddress: z
    .custom<Address>(
      (value) =>
        typeof value === 'string' &&
        (/^0x[0-9a-fA-F]{40}$/.test(value) || /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value)),
    )
    .check(
      z.meta({
        type: 'string',
        pattern: '^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$',
        description: 'EVM address (EIP-55) or Solana address (base58)',
      }),
    ),
  /** A 32-byte hash (transaction hash, SafeTx hash). */
  hash: z
    .custom<Hex>((value) => typeof value === 'string' && /^0x[0-9a-fA-F]{64}$/.test(value))
    .check(z.meta({ type: 'string', pattern: '^0x[0-9a-fA-F]{64}$' })),
  /** `0x`-prefixed bytes (calldata, signatures). */
  hex: z
    .custom<Hex>((value) => typeof value === 'string' && /^0x[0-9a-fA-F]*$/.test(value))
    .check(z.meta({ type: 'string', pattern: '^0x[0-9a-fA-F]*$' })),
  /** An ISO 8601 instant. */
  timestamp: z.string().check(z.meta({ format: 'date-time' })),
  /** A decimal amount in an asset's units ("0.1"). */
  decimal: z.string().check(z.meta({ pattern: '^[0-9]+(\\.[0-9]+)?$', description: 'Decimal amount' })),
  /** An integer amount in base units (wei), as a string. */
  baseUnits: z.string().check(z.meta({ pattern: '^[0-9]+$', description: 'Integer amount in base units' })),
}
