// Kept for callers of 0.1: it moved to core, which the KMS vaults share.
export { type CheckedSignatureParameters, checkedSignature } from '@agentwallet/core'
export { ecPointAddress, edwardsPointAddress } from './ecPointAddress.js'
export {
  type Pkcs11KeyVault,
  type Pkcs11KeyVaultOptions,
  type Pkcs11VaultStats,
  pkcs11KeyVault,
} from './pkcs11KeyVault.js'
export type { TokenConnectionOptions, TokenSelector } from './tokenConnection.js'
