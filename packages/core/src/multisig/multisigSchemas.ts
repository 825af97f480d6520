import { z } from 'zod'
import { addressSchema, decimalAmountSchema, hexDataSchema } from '../schemas/primitives.js'

const chainSchema = z.string().min(1).max(64)

/** Deploy a Safe v1.4.1: unique valid owners, 1 ≤ threshold ≤ owners; `from` (a managed wallet) pays gas. */
export const deploySafeSchema = z
  .strictObject({
    owners: z.array(addressSchema).min(1).max(50),
    threshold: z.number().int().min(1),
    chain: chainSchema.optional(),
    from: addressSchema.optional(),
  })
  .superRefine((input, ctx) => {
    const seen = new Set<string>()
    input.owners.forEach((owner, index) => {
      if (seen.has(owner))
        ctx.addIssue({ code: 'custom', path: ['owners', index], message: 'Owners must be unique' })
      seen.add(owner)
    })
    if (input.threshold > input.owners.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['threshold'],
        message: 'Threshold cannot exceed the number of owners',
      })
    }
  })
export type DeploySafeParameters = z.input<typeof deploySafeSchema>

/** Propose a Safe transaction; `from` is the managed owner that proposes and signs first; `value` in native units. */
export const proposeSafeSchema = z.strictObject({
  from: addressSchema,
  to: addressSchema,
  value: decimalAmountSchema,
  data: hexDataSchema.optional(),
  /** 0 = call, 1 = delegatecall (e.g. MultiSend). */
  operation: z.union([z.literal(0), z.literal(1)]).optional(),
  chain: chainSchema.optional(),
})
export type ProposeSafeParameters = z.input<typeof proposeSafeSchema>

const safeTxHashSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, { message: 'safeTxHash must be 0x followed by 64 hex characters' })
  .transform((value) => value.toLowerCase() as `0x${string}`)

/** Confirm as a managed owner (`from`) or with an outside owner's 65-byte ECDSA `signature`. */
export const confirmSafeSchema = z.union([
  z.strictObject({ safeTxHash: safeTxHashSchema, from: addressSchema, chain: chainSchema.optional() }),
  z.strictObject({
    safeTxHash: safeTxHashSchema,
    signature: z
      .string()
      .regex(/^0x[0-9a-fA-F]{130}$/, { message: 'signature must be 65 bytes of hex (r, s, v)' }),
    chain: chainSchema.optional(),
  }),
])
export type ConfirmSafeParameters = z.input<typeof confirmSafeSchema>

export const getSafeSchema = z.strictObject({ chain: chainSchema.optional() })
export type GetSafeParameters = z.input<typeof getSafeSchema>
