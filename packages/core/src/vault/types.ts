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
  /**
   * Optional: the vault's Ed25519 keys (the `solana` family's). A vault without it holds secp256k1
   * keys only, and a Solana wallet cannot be made on it (`unsupported_operation`).
   */
  readonly ed25519?: Ed25519Keys | undefined
}

/** A chain family: how its addresses, keys, transactions and effects are made. */
export type ChainFamily = 'evm' | 'solana'

/**
 * What a vault hands core for an Ed25519 key: its public key in base58 (a Solana address) and a
 * signer of raw bytes (a transaction's message). Core never sees the secret.
 */
export type Ed25519Signer = {
  readonly address: string
  /** The 64-byte Ed25519 signature of `message`. */
  signBytes(message: Uint8Array): Promise<Uint8Array>
}

/**
 * A vault's Ed25519 keys, by base58 public key. Shaped like the secp256k1 side of `KeyVault`.
 * @example const address = await vault.ed25519.createKey(); const signer = await vault.ed25519.getSigner(address)
 */
export interface Ed25519Keys {
  /** Creates a new key and returns its base58 public key. */
  createKey(): Promise<string>
  /** Optional: as `KeyVault.prepareKey`, for an Ed25519 key. */
  prepareKey?(): Promise<PreparedEd25519Key>
  /**
   * Stores an existing key: its 32-byte seed, or the 64-byte secret key (seed ‖ public key) the Solana
   * CLI and wallets export, whose public half must match. A key already held returns its address.
   */
  importKey(secretKey: Uint8Array): Promise<string>
  hasKey(address: string): Promise<boolean>
  /** A signer for the key; rejects with `not_found` for an unknown address. */
  getSigner(address: string): Promise<Ed25519Signer>
  /** The 64-byte secret key (seed ‖ public key). Only vaults with `capabilities.exportable` implement it. */
  exportKey?(address: string): Promise<Uint8Array>
}

/** An Ed25519 key made by `Ed25519Keys.prepareKey`, stored when `save` runs in a transaction that commits. */
export type PreparedEd25519Key = { address: string; save(tx: StorageTx): Promise<void> }

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
