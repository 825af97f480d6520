export { runStorageConformance, type StorageConformanceOptions } from './storageConformance.js'
export type { Expectation, TestRunner } from './testRunner.js'
export { runKeyVaultConformance, type KeyVaultConformanceOptions } from './keyVaultConformance.js'
export * from './policyEngineConformance.js'
