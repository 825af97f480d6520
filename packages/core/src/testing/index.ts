export { type KeyVaultConformanceOptions, runKeyVaultConformance } from './keyVaultConformance.js'
export * from './policyEngineConformance.js'
export { runStorageConformance, type StorageConformanceOptions } from './storageConformance.js'
export type { Expectation, TestRunner } from './testRunner.js'
