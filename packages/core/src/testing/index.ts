export {
  type ChainNodeConformanceOptions,
  type ChainNodeUnderTest,
  runChainNodeConformance,
} from './chainNodeConformance.js'
export { type KeyVaultConformanceOptions, runKeyVaultConformance } from './keyVaultConformance.js'
export * from './policyEngineConformance.js'
export {
  runScreeningSourceConformance,
  type ScreeningFixture,
  type ScreeningSourceConformanceOptions,
} from './screeningSourceConformance.js'
export { runCrashWriter } from './storage/storageCrashTests.js'
export { runStorageConformance, type StorageConformanceOptions } from './storageConformance.js'
export type { Expectation, TestRunner } from './testRunner.js'
