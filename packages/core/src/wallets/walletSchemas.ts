import { z } from 'zod'
import { hexDataSchema } from '../schemas/primitives.js'

const agentName = z.string().trim().min(1, 'agentName must not be empty').max(100)
const chainName = z.string().min(1).max(64)

export const createWalletSchema = z.strictObject({ agentName, chain: chainName.optional() })
export type CreateWalletParameters = z.input<typeof createWalletSchema>

export const importWalletSchema = z.strictObject({
  privateKey: hexDataSchema.refine((key) => key.length === 66, 'privateKey must be 32 bytes of hex'),
  agentName,
  chain: chainName.optional(),
})
export type ImportWalletParameters = z.input<typeof importWalletSchema>
