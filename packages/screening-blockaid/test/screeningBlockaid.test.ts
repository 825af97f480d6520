import { runScreeningSourceConformance } from '@agentwallet/core/testing'
import { describe, expect, it } from 'vitest'
import { startBlockaidApi } from '../../../test/helpers/blockaidApi.js'
import { blockaidScreening } from '../src/blockaidScreening.js'

const drainer = '0x8576aCC5C05D6Ce88f4e49bf65BdF0C62F91353C'
const fresh = '0x4B20993Bc481177ec7E8f571ceCaE8A9e22C02db'
const on = { tenantId: 't1', chain: 'devnet', chainId: 31337, family: 'evm' as const }
const call = (data: string) => ({ ...on, from: fresh, to: drainer, value: '0', data })

// Blockaid's own client against a local server speaking its documented API (no vendor is reachable here).
runScreeningSourceConformance(
  { describe, it, expect },
  {
    create: async () => {
      const api = await startBlockaidApi()
      api.addresses.set(drainer.toLowerCase(), 'Malicious')
      api.addresses.set(fresh.toLowerCase(), 'Warning')
      api.calls.set('0xdeadbeef', 'Malicious')
      const source = blockaidScreening({
        apiKey: api.apiKey,
        baseURL: api.url,
        chains: { 31337: 'ethereum' },
        maxRetries: 0,
      })
      return {
        source,
        on,
        clear: '0x000000000000000000000000000000000000dEaD',
        block: drainer,
        warn: fresh,
        calls: { clear: call('0x12345678'), block: call('0xdeadbeef') },
        outage: () => api.failWith(503),
        close: () => api.close(),
      }
    },
  },
)

describe('blockaidScreening', () => {
  it('gives Blockaid’s features and classification as reasons', async () => {
    const api = await startBlockaidApi()
    try {
      api.addresses.set(drainer.toLowerCase(), 'Malicious')
      api.calls.set('0xdeadbeef', 'Warning')
      const source = blockaidScreening({
        apiKey: api.apiKey,
        baseURL: api.url,
        chains: { 31337: 'ethereum' },
      })
      expect(await source.screenAddress({ ...on, address: drainer })).toEqual({
        verdict: 'block',
        source: 'blockaid',
        reasons: ['Known drainer: this address stole funds from 1,204 wallets'],
      })
      expect(await source.screenCall!(call('0xdeadbeef'))).toEqual({
        verdict: 'warn',
        source: 'blockaid',
        reasons: ['unverified_contract: unusual_call', 'Unverified contract deployed 2 days ago'],
      })
    } finally {
      await api.close()
    }
  })

  it('is unavailable, never clear, on a result of Error, a refused key, no server, or a chain it does not scan', async () => {
    const api = await startBlockaidApi()
    const source = (options: { apiKey?: string; baseURL?: string; chains?: Record<number, string> }) =>
      blockaidScreening({
        apiKey: api.apiKey,
        baseURL: api.url,
        chains: { 31337: 'ethereum' },
        maxRetries: 0,
        ...options,
      })
    try {
      api.addresses.set(drainer.toLowerCase(), 'Error')
      await expect(source({}).screenAddress({ ...on, address: drainer })).rejects.toMatchObject({
        code: 'screening_unavailable',
        details: { source: 'blockaid', reason: 'Blockaid could not scan it (result Error)' },
      })
      api.calls.set('0xdeadbeef', 'Error')
      await expect(source({}).screenCall!(call('0xdeadbeef'))).rejects.toMatchObject({
        code: 'screening_unavailable',
      })
      await expect(
        source({ apiKey: 'wrong' }).screenAddress({ ...on, address: fresh }),
      ).rejects.toMatchObject({
        code: 'screening_unavailable',
        details: { reason: 'Blockaid answered 401' },
      })
      await expect(source({ chains: {} }).screenAddress({ ...on, address: fresh })).rejects.toMatchObject({
        code: 'screening_unavailable',
        details: { reason: 'Blockaid does not scan chain devnet' },
      })
    } finally {
      await api.close()
    }
    await expect(source({}).screenAddress({ ...on, address: fresh })).rejects.toMatchObject({
      code: 'screening_unavailable',
      details: { reason: 'Blockaid did not answer' },
    })
  })
})
