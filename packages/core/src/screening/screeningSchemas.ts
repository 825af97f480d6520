import * as z from 'zod/mini'
import { displayTextSchema, pageFields } from '../schemas/primitives.js'

/** A chain family whose addresses lists hold (each checked by its own form: `screenedAddress`). */
export const screeningFamilySchema = z._default(z.enum(['evm', 'solana']), 'evm')

const reasonSchema = displayTextSchema(500).check(z.minLength(1, 'reason must not be empty'))
// The form is checked per family by the action (`screenedAddress`), so each family keeps its own.
const rawAddressSchema = z.string().check(z.minLength(1), z.maxLength(128))

export const screeningListIdField = z
  .string()
  .check(z.minLength(1), z.maxLength(100), z.describe('The list id (scl_…)'))

export const screeningListSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.optional(z.string()),
  shared: z.boolean().check(z.describe('Screens every tenant’s sends (made by the operator’s root admin)')),
  verdict: z.enum(['block', 'warn']),
  entries: z.number().check(z.int(), z.describe('Addresses on the list')),
  createdAt: z.string(),
  updatedAt: z.string(),
})

export const screeningEntrySchema = z.object({
  family: z.enum(['evm', 'solana']),
  address: z.string(),
  reason: z.string(),
  addedAt: z.string(),
  addedBy: z.string(),
})

export const createScreeningListSchema = z.strictObject({
  name: displayTextSchema(100).check(z.minLength(1, 'name must not be empty')),
  description: z.optional(displayTextSchema(500)),
  shared: z
    ._default(z.boolean(), false)
    .check(z.describe('Screen every tenant’s sends with it (the root admin only)')),
  verdict: z
    ._default(z.enum(['block', 'warn']), 'block')
    .check(z.describe('What an address on it gets: block (denied) or warn (paused for approval by default)')),
})

export const addScreeningEntriesSchema = z.strictObject({
  list: screeningListIdField,
  family: screeningFamilySchema,
  entries: z
    .array(z.strictObject({ address: rawAddressSchema, reason: reasonSchema }))
    .check(z.minLength(1), z.maxLength(1000)),
})

export const removeScreeningEntriesSchema = z.strictObject({
  list: screeningListIdField,
  family: screeningFamilySchema,
  addresses: z.array(rawAddressSchema).check(z.minLength(1), z.maxLength(1000)),
  reason: reasonSchema,
})

export const screeningFileFormats = ['csv', 'ofac_sdn_csv', 'ofac_sdn_xml'] as const

export const importScreeningListSchema = z.strictObject({
  list: screeningListIdField,
  family: screeningFamilySchema,
  format: z
    .enum(screeningFileFormats)
    .check(
      z.describe(
        'csv: `address,reason` rows (a header row is skipped); ofac_sdn_csv: OFAC’s sdn.csv, whose remarks carry “Digital Currency Address - ETH 0x…;”; ofac_sdn_xml: OFAC’s sdn.xml, its `<idType>Digital Currency Address - …</idType>` ids',
      ),
    ),
  content: z.string().check(z.minLength(1), z.maxLength(50_000_000)),
  reason: z.optional(reasonSchema).check(z.describe('The reason of rows that give none (csv)')),
})

export const listScreeningEntriesSchema = z.strictObject({
  list: screeningListIdField,
  ...pageFields({ defaultLimit: 50, maxLimit: 200 }),
})

export const skippedRowSchema = z.object({ line: z.number(), value: z.string(), reason: z.string() })

export const importScreeningAnswerSchema = z.object({
  list: screeningListSchema,
  added: z
    .number()
    .check(z.int(), z.describe('Addresses listed by this import (an address listed again is replaced)')),
  skipped: z.array(skippedRowSchema).check(z.describe('Rows not imported and why (the first 100)')),
  skippedCount: z.number().check(z.int()),
})
