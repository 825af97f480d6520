import { hexToBytes, keccak256, parseSignature, recoverAddress, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount, sign } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { checkedSignature } from './checkedSignature.js'

const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const privateKey = generatePrivateKey()
const { address } = privateKeyToAccount(privateKey)
const hash = keccak256(toHex('checked before use'))

/** What a token answers: r‖s with no recovery id, s as given. */
const raw = async (s?: (s: bigint) => bigint) => {
  const signature = parseSignature(await sign({ hash, privateKey, to: 'hex' }))
  const word = (value: bigint) => hexToBytes(toHex(value, { size: 32 }))
  const sValue = BigInt(signature.s)
  return new Uint8Array([...hexToBytes(signature.r), ...word(s ? s(sValue) : sValue)])
}

describe('checkedSignature', () => {
  it('normalises a high s and finds the recovery id of the wallet', async () => {
    let bad = 0
    const signature = await checkedSignature({
      hash,
      address,
      signRaw: () => raw((s) => n - s),
      maxAttempts: 1,
      onBadSignature: () => bad++,
    })
    expect(BigInt(`0x${signature.slice(66, 130)}`) <= n / 2n).toBe(true)
    expect(await recoverAddress({ hash, signature })).toBe(address)
    expect(bad).toBe(0)
  })

  it('retries a signature that does not recover to the wallet and counts it', async () => {
    const answers = [raw((s) => s ^ 1n), raw((s) => 0n * s), raw()]
    let bad = 0
    const signature = await checkedSignature({
      hash,
      address,
      signRaw: () => answers.shift()!,
      maxAttempts: 3,
      onBadSignature: () => bad++,
    })
    expect(await recoverAddress({ hash, signature })).toBe(address)
    expect(bad).toBe(2)
  })

  it('fails with vault_error once the bound is reached, never returning a bad signature', async () => {
    let asked = 0
    let bad = 0
    const other = privateKeyToAccount(generatePrivateKey()).address
    await expect(
      checkedSignature({
        hash,
        address: other,
        signRaw: () => {
          asked++
          return raw()
        },
        maxAttempts: 3,
        onBadSignature: () => bad++,
      }),
    ).rejects.toMatchObject({ code: 'vault_error' })
    expect([asked, bad]).toEqual([3, 3])
  })
})
