import { z } from 'zod'
import { addressSchema } from '../schemas/primitives.js'

/** The controller refuses registrations shorter than 28 days. */
export const minRegistrationSeconds = 28 * 24 * 60 * 60
export const secondsPerYear = 365 * 24 * 60 * 60

const durationFields = {
  years: z.number().int().min(1).max(100).optional(),
  durationSeconds: z
    .number()
    .int()
    .min(minRegistrationSeconds)
    .max(100 * secondsPerYear)
    .optional(),
}

function oneDuration(value: { years?: number | undefined; durationSeconds?: number | undefined }): boolean {
  return value.years === undefined || value.durationSeconds === undefined
}
const durationMessage = {
  message: 'Give either years or durationSeconds, not both',
  path: ['durationSeconds'],
}

/** Options of `checkEnsName`: the chain and the duration to price (default one year). */
export const checkEnsOptionsSchema = z
  .strictObject({ chain: z.string().min(1).max(64).optional(), ...durationFields })
  .refine(oneDuration, durationMessage)
export type CheckEnsNameOptions = z.input<typeof checkEnsOptionsSchema>

export const resolveEnsOptionsSchema = z.strictObject({ chain: z.string().min(1).max(64).optional() })
export type ResolveEnsNameOptions = z.input<typeof resolveEnsOptionsSchema>

/** `POST /ens/register`: the name, the paying wallet (the caller's only wallet when absent), how long. */
export const registerEnsSchema = z
  .strictObject({
    name: z.string().max(255),
    wallet: addressSchema.optional(),
    chain: z.string().min(1).max(64).optional(),
    setReverse: z.boolean().optional(),
    ...durationFields,
  })
  .refine(oneDuration, durationMessage)
export type RegisterEnsNameParameters = z.input<typeof registerEnsSchema>

/** Duration in seconds from `years` / `durationSeconds` (default one year). */
export function durationOf(value: {
  years?: number | undefined
  durationSeconds?: number | undefined
}): number {
  return value.durationSeconds ?? (value.years ?? 1) * secondsPerYear
}
