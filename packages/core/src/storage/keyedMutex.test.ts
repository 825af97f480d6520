import { describe, expect, it } from 'vitest'
import { keyedMutex } from './keyedMutex.js'

describe('keyedMutex', () => {
  it('grants one key in FIFO order and frees it after the last release', async () => {
    const mutex = keyedMutex()
    const order: number[] = []
    const first = await mutex.lock('k')
    const waiters = [1, 2, 3].map((n) =>
      mutex.lock('k').then((release) => {
        order.push(n)
        release()
      }),
    )
    expect(mutex.isLocked('k')).toBe(true)
    first()
    first() // a second call must not release someone else's hold
    await Promise.all(waiters)
    expect(order).toEqual([1, 2, 3])
    expect(mutex.isLocked('k')).toBe(false)
  })

  it('does not let a newcomer barge in when the lock is handed over', async () => {
    const mutex = keyedMutex()
    const order: string[] = []
    const held = await mutex.lock('k')
    const queued = mutex.lock('k').then((release) => {
      order.push('queued')
      release()
    })
    held()
    const newcomer = mutex.lock('k').then((release) => {
      order.push('newcomer')
      release()
    })
    await Promise.all([queued, newcomer])
    expect(order).toEqual(['queued', 'newcomer'])
  })

  it('keeps keys independent', async () => {
    const mutex = keyedMutex()
    await mutex.lock('a')
    const b = await mutex.lock('b')
    expect(mutex.isLocked('b')).toBe(true)
    b()
    expect(mutex.isLocked('b')).toBe(false)
    expect(mutex.isLocked('a')).toBe(true)
  })
})
