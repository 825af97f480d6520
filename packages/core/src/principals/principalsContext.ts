import type { AgentWalletContext } from '../context.js'

/** What the key and tenant actions need: storage, a clock and ids (no chain), so a CLI can run them offline. */
export type PrincipalsContext = Pick<AgentWalletContext, 'storage' | 'now' | 'newId'> & {
  /** Read for `options.audit` only: a CLI without it records nothing in the trail. */
  options?: Pick<AgentWalletContext['options'], 'audit'> | undefined
}
