export { type CheckedSignatureParameters, checkedSignature } from './checkedSignature.js'
export { ecPointAddress } from './ecPointAddress.js'
export {
  type Pkcs11KeyVault,
  type Pkcs11KeyVaultOptions,
  type Pkcs11VaultStats,
  pkcs11KeyVault,
} from './pkcs11KeyVault.js'
export type { TokenConnectionOptions, TokenSelector } from './tokenConnection.js'
