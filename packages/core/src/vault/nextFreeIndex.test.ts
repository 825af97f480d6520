import { describe, expect, it } from 'vitest'
import { nextFreeIndex } from './nextFreeIndex.js'

describe('nextFreeIndex', () => {
  it.each([0, 1, 2, 7, 8, 100, 1023])('finds %i after a contiguous run, in few probes', async (used) => {
    let probes = 0
    const isUsed = async (index: number) => {
      probes += 1
      return index < used
    }
    expect(await nextFreeIndex(isUsed, 0)).toBe(used)
    expect(probes <= 2 * Math.ceil(Math.log2(used + 2)) + 2).toBe(true)
  })
})
