import * as z from 'zod/mini'
import { out } from '../schemas/out.js'

const effectSchema = z.object({
  kind: z.enum(['out', 'in', 'grant', 'revoke']),
  asset: z.object({
    address: z.union([out.address, z.literal('native')]),
    symbol: z.string(),
    decimals: z.number().check(z.int()),
    standard: z.enum(['native', 'erc20', 'erc721', 'erc1155', 'permit2', 'spl']),
    tokenId: z.optional(out.baseUnits),
  }),
  amount: out.baseUnits.check(
    z.describe('Base units of the asset (an ERC-721 token: 1; an operator grant: 0)'),
  ),
  unlimited: z
    .optional(z.literal(true))
    .check(
      z.describe('A grant of the maximum allowance, or of every token of a collection: flag it to a human'),
    ),
  counterparty: out.address.check(
    z.describe('The recipient (out), the sender (in), the spender or operator'),
  ),
  /** What the amount was worth, when a USD rule valued it. */
  usd: z.optional(z.looseObject({ value: out.decimal })),
})

/**
 * What a transaction does to the paying account, as records and answers show it (`StoredEffects`):
 * each effect (`out`, `in`, `grant`, `revoke`) in base units, and where it was learnt — or why it is
 * not known.
 */
export const storedEffectsSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('known'),
    source: z.enum(['decoded', 'simulated', 'receipt']),
    effects: z.array(effectSchema),
    gasUsed: z.optional(out.baseUnits),
  }),
  z.object({
    status: z.literal('reverted'),
    source: z.literal('simulated'),
    reason: z.string(),
    data: z.optional(out.hex),
  }),
  z.object({ status: z.literal('unknown'), reason: z.string() }),
])
