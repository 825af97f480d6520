import { describe, expect, it } from 'vitest'
import {
  encodeRecordedSpends,
  recordedSpendsMemory,
  resolveRecordedSpends,
  sameSpend,
} from './recordedSpends.js'

const spend = (n: number, usd = '1') => ({ amount: { $bigint: String(n) }, at: n, usd })

function roundTrip(base: unknown[], next: unknown[]) {
  const recorded = encodeRecordedSpends({ spends: next }, { after: 'h', spends: base })
  return { recorded, resolved: resolveRecordedSpends(recorded, base) }
}

describe('recorded spends', () => {
  it('records a new spend and the ones out of the window, not the list again', () => {
    const base = [spend(1), spend(2), spend(3)]
    const { recorded, resolved } = roundTrip(base, [spend(2), spend(3), spend(4)])
    expect(recorded).toEqual({ after: 'h', drop: [0], add: [[2, spend(4)]] })
    expect(resolved).toEqual([spend(2), spend(3), spend(4)])
  })

  it('records a spend whose value changed as dropped and added again, where it stands', () => {
    const base = [spend(1), spend(2), spend(3)]
    const { recorded, resolved } = roundTrip(base, [spend(1), spend(2, '9.5'), spend(3)])
    expect(recorded).toEqual({ after: 'h', drop: [1], add: [[1, spend(2, '9.5')]] })
    expect(resolved).toEqual([spend(1), spend(2, '9.5'), spend(3)])
  })

  it('rebuilds any order and repeats exactly (a permutation, twins, an empty list)', () => {
    const lists = [
      [],
      [spend(5)],
      [spend(3), spend(1), spend(2)],
      [spend(1), spend(1), spend(2)],
      [spend(2), spend(1), spend(1), spend(7), spend(3)],
    ]
    for (const base of lists) for (const next of lists) expect(roundTrip(base, next).resolved).toEqual(next)
  })

  it('records a long window by its changes: spends gone from its start, one changed, one new', () => {
    const base = Array.from({ length: 100 }, (_, n) => spend(n))
    const next = [...base.slice(2, 50), spend(50, '2'), ...base.slice(51), spend(100)]
    const { recorded, resolved } = roundTrip(base, next)
    expect(recorded).toEqual({
      after: 'h',
      drop: [0, 1, 50],
      add: [
        [48, spend(50, '2')],
        [98, spend(100)],
      ],
    })
    expect(resolved).toEqual(next)
  })

  it('rebuilds random lists from random lists, reordered far beyond the nearby search', () => {
    let seed = 7
    const random = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % below
    }
    for (let round = 0; round < 300; round++) {
      const base = Array.from({ length: random(40) }, () => spend(random(30)))
      const next = [...base, ...Array.from({ length: random(10) }, () => spend(random(30)))]
        .filter(() => random(5) > 0)
        .sort(() => (random(4) === 0 ? random(3) - 1 : 0))
      expect(roundTrip(base, next).resolved).toEqual(next)
    }
  })

  it('records engine inputs in audit JSON, and keeps a spend equal in value to the earlier one', () => {
    const at = new Date(1_000)
    const input = (amount: bigint) => ({
      asset: 'native',
      amount,
      at,
      effects: [{ amount, unlimited: undefined }],
    })
    const recorded = encodeRecordedSpends(
      { spends: [input(2n), input(3n)] },
      {
        after: 'h',
        spends: [input(1n), input(2n)],
      },
    )
    expect(recorded).toEqual({
      after: 'h',
      drop: [0],
      add: [
        [
          1,
          {
            asset: 'native',
            amount: { $bigint: '3' },
            at: at.toISOString(),
            effects: [{ amount: { $bigint: '3' } }],
          },
        ],
      ],
    })
  })

  it('takes a spend with the same key as the one it follows, and compares spends of other keys by value', () => {
    const base = [spend(1), spend(2), spend(3)]
    // Keys name the write a spend was built from: the same key is the same spend, unread.
    const sameKey = encodeRecordedSpends(
      { spends: [spend(1), spend(2), spend(3)], keys: ['a', 'b', 'c'] },
      { after: 'h', spends: base, keys: ['a', 'b', 'c'] },
    )
    expect(sameKey).toEqual({ after: 'h', add: [] })
    // Another key (a later write of the record) is compared: unchanged stays, changed is written again.
    const rewritten = encodeRecordedSpends(
      { spends: [spend(1), spend(2, '9'), spend(3)], keys: ['a', 'b2', 'c2'] },
      { after: 'h', spends: base, keys: ['a', 'b', 'c'] },
    )
    expect(rewritten).toEqual({ after: 'h', drop: [1], add: [[1, spend(2, '9')]] })
    // A key is trusted: equal keys keep the earlier spend even if the objects differ.
    const trusted = encodeRecordedSpends(
      { spends: [spend(7)], keys: ['a'] },
      { after: 'h', spends: [spend(1)], keys: ['a'] },
    )
    expect(trusted).toEqual({ after: 'h', add: [] })
  })

  it('compares spends by value: members in any order, bigints, dates, absent and undefined alike', () => {
    expect(sameSpend({ a: 1n, b: [new Date(5)] }, { b: [new Date(5)], a: 1n, c: undefined })).toBe(true)
    expect(sameSpend({ a: 1n }, { a: 2n })).toBe(false)
    expect(sameSpend({ a: 1n }, { a: 1 })).toBe(false)
    expect(sameSpend({ at: new Date(5) }, { at: new Date(6) })).toBe(false)
    expect(sameSpend({ at: new Date(5) }, { at: {} })).toBe(false)
    expect(sameSpend([1, 2], [1, 2, 3])).toBe(false)
    expect(sameSpend({ a: [1] }, { a: { 0: 1 } })).toBe(false)
    expect(sameSpend({ a: 1 }, { a: 1, b: null })).toBe(false)
  })

  it('with no earlier list, records the whole list', () => {
    const spends = [spend(1), spend(2)]
    const recorded = encodeRecordedSpends({ spends })
    expect(recorded).toEqual({
      add: [
        [0, spend(1)],
        [1, spend(2)],
      ],
    })
    expect(resolveRecordedSpends(recorded, [])).toEqual(spends)
  })

  it('refuses positions the lists do not have', () => {
    expect(() => resolveRecordedSpends({ drop: [3], add: [] }, [spend(1)])).toThrow(/drops position 3/)
    expect(() => resolveRecordedSpends({ add: [[2, spend(1)]] }, [spend(1)])).toThrow(/adds at position 2/)
    expect(() =>
      resolveRecordedSpends(
        {
          add: [
            [1, spend(1)],
            [0, spend(2)],
          ],
        },
        [spend(3)],
      ),
    ).toThrow(/adds at position 0/)
  })

  it('remembers a list only once its entry is seen committed, and forgets past its bound', () => {
    const memory = recordedSpendsMemory(2)
    memory.appended({ id: 'aud_1', hash: 'h1' }, 'w1', { spends: ['a'], keys: ['k'] })
    expect(memory.latest('w1')).toBeUndefined()
    const committed = (id: string) => ({ id, stream: 'audit:t', seq: 1, type: 'x', timestamp: '', data: {} })
    memory.committed([{ ...committed('aud_1'), stream: 'default' }])
    expect(memory.latest('w1')).toBeUndefined()
    memory.committed([committed('aud_1')])
    expect(memory.latest('w1')).toEqual({ after: 'h1', spends: ['a'], keys: ['k'] })
    memory.appended({ id: 'aud_2', hash: 'h2' }, 'w2', { spends: [] })
    memory.appended({ id: 'aud_3', hash: 'h3' }, 'w3', { spends: [] })
    memory.committed([committed('aud_2'), committed('aud_3')])
    expect(memory.latest('w1')).toBeUndefined()
    expect(memory.latest('w3')).toEqual({ after: 'h3', spends: [], keys: undefined })
  })
})
