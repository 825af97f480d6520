/** The few matchers the conformance suites use; vitest's and jest's `expect` both satisfy it. */
export type Expectation = {
  toBe(expected: unknown): void
  toEqual(expected: unknown): void
  toMatchObject(expected: object): void
  toHaveLength(length: number): void
  toBeUndefined(): void
  rejects: { toMatchObject(expected: object): Promise<void> }
}

type TestFn = () => Promise<void> | void

/**
 * The test runner's functions, passed in so a suite depends on no runner.
 * @example runStorageConformance({ describe, it, expect }, { create: () => memoryStorage() })
 */
export type TestRunner = {
  describe: (name: string, fn: () => void) => void
  it: ((name: string, fn: TestFn) => void) & { skip?: (name: string, fn: TestFn) => void }
  expect: (actual: unknown) => Expectation
  /** Accepted for symmetry with other suites; the suites open and close their own fixtures. */
  beforeEach?: ((fn: TestFn) => void) | undefined
  afterEach?: ((fn: TestFn) => void) | undefined
}

/** Registers a test, or a visibly skipped one when `skipReason` is set. A skip always needs a reason. */
export const testOrSkip = (runner: TestRunner, name: string, skipReason: string | undefined, fn: TestFn) => {
  if (skipReason === undefined) return runner.it(name, fn)
  if (skipReason.trim() === '') throw new Error(`Skipping "${name}" needs a reason`)
  runner.it.skip?.(`${name} (skipped: ${skipReason})`, fn)
}
