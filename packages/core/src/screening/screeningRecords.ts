import type { ChainFamily } from '../vault/types.js'

/**
 * An operator's list of counterparties. A tenant's list screens that tenant's sends; a `shared` one
 * (made by the root admin) screens every tenant's. `verdict` is what an address on it gets.
 */
export type ScreeningListRecord = {
  id: string
  tenantId: string
  name: string
  description?: string | undefined
  shared: boolean
  verdict: 'block' | 'warn'
  createdAt: string
  createdBy: string
  updatedAt: string
}

/**
 * One address on one list, with the reason it was listed. `key` is the address as its family compares
 * it (EVM: lowercase); the id is the list, family and key, so listing an address twice replaces it.
 */
export type ScreeningEntryRecord = {
  id: string
  listId: string
  tenantId: string
  shared: boolean
  family: ChainFamily
  address: string
  key: string
  reason: string
  addedAt: string
  addedBy: string
}

export const screeningListsCollection = 'screening_lists'
export const screeningEntriesCollection = 'screening_entries'

/** The id of an address's entry on a list. */
export function screeningEntryId(listId: string, family: ChainFamily, key: string): string {
  return `${listId}:${family}:${key}`
}
