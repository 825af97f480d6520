import type { Address, Hex, LocalAccount } from 'viem'
import type { StorageTx } from '../storage/types.js'

/**
 * What a vault hands to core instead of a key: a viem-compatible local account that signs.
 * Core never sees plaintext key material.
 */
export type VaultSigner = LocalAccount

export type KeyVaultCapabilities = {
  /** Keys can be exported (an explicit admin-only act at the edge). */
  exportable: boolean
  /** Keys derive from one recovery phrase. */
  hd: boolean
  /** Keys are encrypted at rest (false for the memory test vault). */
  encryptedAtRest: boolean
}

/**
 * The KeyVault port: creates, imports and uses keys.
 * @example const address = await vault.createKey(); const signer = await vault.getSigner(address)
 */
export interface KeyVault {
  readonly name: string
  readonly capabilities: KeyVaultCapabilities
  /** Creates a new key and returns its address. */
  createKey(): Promise<Address>
  /**
   * Optional: a new key, generated and sealed but not yet stored; `save(tx)` files it in the
   * caller's transaction, so the key and the wallet that uses it commit together (one fsync).
   * Vaults that keep keys elsewhere leave it out, and `createKey` is used.
   */
  prepareKey?(): Promise<PreparedKey>
  /** Stores an existing private key; importing a key the vault already holds returns its address. */
  importKey(privateKey: Hex): Promise<Address>
  hasKey(address: Address): Promise<boolean>
  /** A signer for the key; rejects with `not_found` for an unknown address. */
  getSigner(address: Address): Promise<VaultSigner>
  /** The plaintext key. Only vaults with `capabilities.exportable` implement it. */
  exportKey?(address: Address): Promise<Hex>
  /**
   * Optional: one cheap call that proves the keys can be used now (a token session, a KMS describe);
   * rejects with `vault_unavailable` when they cannot. `/health/ready` runs it; a vault in this
   * process's memory leaves it out and is always ready.
   */
  probe?(): Promise<void>
  /**
   * Optional: counters this vault kept since it was made (e.g. `{ signatures, badSignatures }` of an
   * HSM whose signatures are checked before use). `/metrics` shows each as `agentwallet_vault_<name>_total`.
   */
  stats?(): Readonly<Record<string, number>>
}

/** A key made by `KeyVault.prepareKey`, stored when `save` runs in a transaction that commits. */
export type PreparedKey = { address: Address; save(tx: StorageTx): Promise<void> }

/** Where an encrypting vault keeps its records (core adapts Storage to it). */
export interface KeyRecordStore<TRecord> {
  get(address: Address): Promise<TRecord | undefined>
  /** Stores a new record; resolves false when one already exists for the address. */
  add(address: Address, record: TRecord): Promise<boolean>
  /** Optional: stores a new record in an open transaction (`storage_conflict` when one exists). */
  addIn?(tx: StorageTx, address: Address, record: TRecord): Promise<void>
}
