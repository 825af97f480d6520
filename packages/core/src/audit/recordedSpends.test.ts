import { describe, expect, it } from 'vitest'
import { encodeRecordedSpends, recordedSpendsMemory, resolveRecordedSpends } from './recordedSpends.js'

const spend = (n: number, usd = '1') => ({ amount: { $bigint: String(n) }, at: n, usd })
const keysOf = (spends: readonly unknown[]) => spends.map((item) => JSON.stringify(item))

function roundTrip(base: unknown[], next: unknown[]) {
  const recorded = encodeRecordedSpends(keysOf(next), { after: 'h', keys: keysOf(base) })
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

  it('with no earlier list, records the whole list', () => {
    const spends = [spend(1), spend(2)]
    const recorded = encodeRecordedSpends(keysOf(spends))
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
    memory.appended({ id: 'aud_1', hash: 'h1' }, 'w1', ['a'])
    expect(memory.latest('w1')).toBeUndefined()
    const committed = (id: string) => ({ id, stream: 'audit:t', seq: 1, type: 'x', timestamp: '', data: {} })
    memory.committed([{ ...committed('aud_1'), stream: 'default' }])
    expect(memory.latest('w1')).toBeUndefined()
    memory.committed([committed('aud_1')])
    expect(memory.latest('w1')).toEqual({ after: 'h1', keys: ['a'] })
    memory.appended({ id: 'aud_2', hash: 'h2' }, 'w2', [])
    memory.appended({ id: 'aud_3', hash: 'h3' }, 'w3', [])
    memory.committed([committed('aud_2'), committed('aud_3')])
    expect(memory.latest('w1')).toBeUndefined()
    expect(memory.latest('w3')).toEqual({ after: 'h3', keys: [] })
  })
})
