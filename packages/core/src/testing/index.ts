export { runStorageConformance, type StorageConformanceOptions } from './storageConformance.js'
export type { Expectation, TestRunner } from './testRunner.js'
