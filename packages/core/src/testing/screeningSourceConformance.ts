import type { ScreeningCall, ScreeningSource, ScreeningSubject } from '../screening/types.js'
import { type TestRunner, testOrSkip } from './testRunner.js'

/** A source under test, what it is known to say, and how to take it down. */
export type ScreeningFixture = {
  source: ScreeningSource
  /** Tenant and chain the addresses are screened on. */
  on: Omit<ScreeningSubject, 'address'>
  /** An address the source clears, one it blocks, and (unless `skipWarn`) one it warns about. */
  clear: string
  block: string
  warn?: string | undefined
  /** Whole calls it clears and blocks (unless `skipCalls`: a source without `screenCall`). */
  calls?: { clear: ScreeningCall; block: ScreeningCall } | undefined
  /** Makes the source unable to answer (stop its server, fail its storage): every ask is an outage then. */
  outage: () => Promise<void> | void
  close?: (() => Promise<void> | void) | undefined
}

export type ScreeningSourceConformanceOptions = {
  create: () => Promise<ScreeningFixture>
  /** Why the source has no `warn` verdict (e.g. a sanctions list only blocks). */
  skipWarn?: string | undefined
  /** Why the source does not judge whole calls. */
  skipCalls?: string | undefined
}

/**
 * Registers the ScreeningSource port's conformance tests: verdicts with their source and reasons,
 * an address found whatever its spelling, and an outage that is `screening_unavailable`, never clear.
 * @example runScreeningSourceConformance({ describe, it, expect }, { create: async () => ({ source, on, clear, block, outage }) })
 */
export const runScreeningSourceConformance = (
  runner: TestRunner,
  options: ScreeningSourceConformanceOptions,
) => {
  const { describe, it, expect } = runner
  const withFixture = (fn: (fixture: ScreeningFixture) => Promise<void>) => async () => {
    const fixture = await options.create()
    try {
      await fn(fixture)
    } finally {
      await fixture.close?.()
    }
  }
  const screen = (fixture: ScreeningFixture, address: string) =>
    fixture.source.screenAddress({ ...fixture.on, address })

  describe('ScreeningSource conformance', () => {
    it(
      'clears an address it knows nothing against, naming itself as the source',
      withFixture(async (fixture) => {
        const result = await screen(fixture, fixture.clear)
        expect(result.verdict).toBe('clear')
        expect(result.source).toBe(fixture.source.name)
        expect(Array.isArray(result.reasons)).toBe(true)
      }),
    )
    it(
      'blocks an address it knows is bad, with at least one reason',
      withFixture(async (fixture) => {
        const result = await screen(fixture, fixture.block)
        expect(result.verdict).toBe('block')
        expect(result.source).toBe(fixture.source.name)
        expect(result.reasons.length > 0).toBe(true)
      }),
    )
    it(
      'finds an EVM address however it is spelled (lowercase, checksummed)',
      withFixture(async (fixture) => {
        if (fixture.on.family !== 'evm') return
        expect((await screen(fixture, fixture.block.toLowerCase())).verdict).toBe('block')
      }),
    )
    testOrSkip(
      runner,
      'warns about an address it has doubts about, with a reason',
      options.skipWarn,
      withFixture(async (fixture) => {
        const result = await screen(fixture, fixture.warn!)
        expect(result.verdict).toBe('warn')
        expect(result.reasons.length > 0).toBe(true)
      }),
    )
    testOrSkip(
      runner,
      'judges whole calls: clears a clean one, blocks a bad one',
      options.skipCalls,
      withFixture(async (fixture) => {
        const screenCall = fixture.source.screenCall?.bind(fixture.source)
        expect(typeof screenCall).toBe('function')
        expect((await screenCall!(fixture.calls!.clear)).verdict).toBe('clear')
        const blocked = await screenCall!(fixture.calls!.block)
        expect(blocked.verdict).toBe('block')
        expect(blocked.source).toBe(fixture.source.name)
      }),
    )
    it(
      'answers an outage with screening_unavailable, never a verdict',
      withFixture(async (fixture) => {
        await fixture.outage()
        await expect(screen(fixture, fixture.clear)).rejects.toMatchObject({ code: 'screening_unavailable' })
        await expect(screen(fixture, fixture.block)).rejects.toMatchObject({ code: 'screening_unavailable' })
        if (options.skipCalls === undefined)
          await expect(fixture.source.screenCall!(fixture.calls!.clear)).rejects.toMatchObject({
            code: 'screening_unavailable',
          })
      }),
    )
  })
}
