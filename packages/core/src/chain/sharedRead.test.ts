import { describe, expect, it } from 'vitest'
import { sharedRead } from './sharedRead.js'
import type { ChainHandle } from './types.js'

const chainOf = () => ({ client: {} }) as unknown as ChainHandle

/** A read that answers when told to, counting how often it was asked. */
function deferredRead<T>() {
  let asked = 0
  let settle: { resolve: (value: T) => void; reject: (error: Error) => void } | undefined
  const read = () => {
    asked++
    return new Promise<T>((resolve, reject) => {
      settle = { resolve, reject }
    })
  }
  return { read, asked: () => asked, settle: () => settle! }
}

describe('sharedRead', () => {
  it('shares a read under way among callers with the same key, and reads again once it is answered', async () => {
    const chain = chainOf()
    const fees = deferredRead<number>()
    const first = sharedRead(chain, 'fees', fees.read)
    const second = sharedRead(chain, 'fees', fees.read)
    expect(fees.asked()).toBe(1)
    fees.settle().resolve(7)
    await expect(Promise.all([first, second])).resolves.toEqual([7, 7])
    const third = sharedRead(chain, 'fees', fees.read)
    expect(fees.asked()).toBe(2)
    fees.settle().resolve(8)
    await expect(third).resolves.toBe(8)
  })

  it('keeps keys and chains apart, and does not keep a failed read', async () => {
    const [a, b] = [chainOf(), chainOf()]
    const code = deferredRead<string>()
    void sharedRead(a, 'code 0x1', code.read)
    void sharedRead(a, 'code 0x2', code.read)
    const failing = sharedRead(b, 'code 0x1', code.read)
    expect(code.asked()).toBe(3)
    code.settle().reject(new Error('down'))
    await expect(failing).rejects.toThrow('down')
    void sharedRead(b, 'code 0x1', code.read)
    expect(code.asked()).toBe(4)
  })
})
