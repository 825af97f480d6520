import { getAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { toChecksumAddress } from './checksumAddress.js'

describe('toChecksumAddress', () => {
  it('answers what viem’s getAddress answers, for EIP-55’s vectors and random addresses', () => {
    const vectors = [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ]
    const random = Array.from({ length: 200 }, (_, index) => {
      let hex = ''
      for (let nibble = 0; nibble < 40; nibble++) hex += ((index * 7919 + nibble * 104729) % 16).toString(16)
      return `0x${hex}`
    })
    for (const address of [...vectors, ...random]) {
      expect(toChecksumAddress(address.toLowerCase())).toBe(getAddress(address.toLowerCase()))
      expect(toChecksumAddress(address.toUpperCase().replace('0X', '0x'))).toBe(
        getAddress(address.toLowerCase()),
      )
    }
  })
})
