import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../storage/memoryStorage.js'
import type { Storage } from '../storage/types.js'
import { runScreeningSourceConformance } from '../testing/screeningSourceConformance.js'
import { cachedScreening } from './cachedScreening.js'
import { listScreening } from './listScreening.js'
import { parseScreeningFile } from './parseScreeningFile.js'
import { screenedAddress } from './screenedAddress.js'
import { screeningEntriesCollection, screeningEntryId, screeningListsCollection } from './screeningRecords.js'
import { ScreeningUnavailableError } from './screeningUnavailableError.js'
import type { ScreeningSource, ScreeningSubject } from './types.js'

const drainer = '0x8576aCC5C05D6Ce88f4e49bf65BdF0C62F91353C'
const watched = '0x1dA4F5d2B6a8C9e0F1234567890aBCdEF1234567'.toLowerCase()
const on = { tenantId: 't1', chain: 'devnet', chainId: 31337, family: 'evm' as const }

/** Memory storage whose reads fail once `down` is set: an outage of the lists' storage. */
function failingStorage(): { storage: Storage; down: () => void } {
  const storage = memoryStorage()
  let failing = false
  const wrapped: Storage = Object.create(storage)
  wrapped.query = (...args) => (failing ? Promise.reject(new Error('disk gone')) : storage.query(...args))
  wrapped.get = (...args) => (failing ? Promise.reject(new Error('disk gone')) : storage.get(...args))
  return { storage: wrapped, down: () => (failing = true) }
}

async function listOf(
  storage: Storage,
  id: string,
  verdict: 'block' | 'warn',
  tenantId: string,
  shared = false,
) {
  const at = new Date().toISOString()
  await storage.transaction([], async (tx) => {
    await tx.insert(screeningListsCollection, {
      id,
      tenantId,
      name: id,
      shared,
      verdict,
      createdAt: at,
      createdBy: 'k',
      updatedAt: at,
    })
  })
  return async (address: string, reason: string) => {
    const key = address.toLowerCase()
    await storage.transaction([], async (tx) => {
      await tx.put(screeningEntriesCollection, {
        id: screeningEntryId(id, 'evm', key),
        listId: id,
        tenantId,
        shared,
        family: 'evm',
        address,
        key,
        reason,
        addedAt: at,
        addedBy: 'k',
      })
    })
  }
}

runScreeningSourceConformance(
  { describe, it, expect },
  {
    skipCalls: 'operator lists name addresses, not calls',
    create: async () => {
      const { storage, down } = failingStorage()
      await (await listOf(storage, 'drainers', 'block', 't1'))(drainer, 'drained a wallet on 2026-11-01')
      await (await listOf(storage, 'watch', 'warn', 't1'))(watched, 'new counterparty under review')
      return {
        source: listScreening(storage),
        on,
        clear: '0x000000000000000000000000000000000000dEaD',
        block: drainer,
        warn: watched,
        outage: down,
      }
    },
  },
)

describe('operator lists as a source', () => {
  it('names the list and its reason, screens a tenant by its own and the shared lists only', async () => {
    const storage = memoryStorage()
    await (await listOf(storage, 'mine', 'block', 't1'))(drainer, 'phishing spender')
    const other = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
    await (await listOf(storage, 'theirs', 'block', 't2'))(other, 'not ours to see')
    await (await listOf(storage, 'sdn', 'block', 'default', true))(other.toLowerCase(), 'OFAC SDN')
    const source = listScreening(storage)
    expect(await source.screenAddress({ ...on, address: drainer })).toEqual({
      verdict: 'block',
      source: 'lists',
      reasons: ['on list "mine": phishing spender'],
      lists: [{ listId: 'mine', listName: 'mine', shared: false, reason: 'phishing spender' }],
    })
    // t2's own list does not screen t1; the shared one does (and screens t2 as well).
    const shared = await source.screenAddress({ ...on, address: other })
    expect(shared.lists).toEqual([{ listId: 'sdn', listName: 'sdn', shared: true, reason: 'OFAC SDN' }])
    expect((await source.screenAddress({ ...on, tenantId: 't3', address: drainer })).verdict).toBe('clear')
  })
})

describe('cachedScreening', () => {
  const counting = (answers: (() => Promise<'clear' | 'block'>)[]) => {
    let asked = 0
    const source: ScreeningSource = {
      name: 'vendor',
      screenAddress: async () => ({ verdict: await answers[asked++]!(), source: 'vendor', reasons: [] }),
    }
    return { source, asked: () => asked }
  }
  const subject: ScreeningSubject = { ...on, address: drainer }

  it('reuses an answer for its TTL, whatever the spelling, and asks again after', async () => {
    let now = 0
    const { source, asked } = counting([async () => 'clear', async () => 'block'])
    const cached = cachedScreening(source, { ttlMs: 1000, now: () => now })
    expect((await cached.screenAddress(subject)).verdict).toBe('clear')
    now = 999
    expect((await cached.screenAddress({ ...subject, address: drainer.toLowerCase() })).verdict).toBe('clear')
    expect(asked()).toBe(1)
    now = 1000
    expect((await cached.screenAddress(subject)).verdict).toBe('block')
    expect(asked()).toBe(2)
    // Another tenant's ask is its own.
    await expect(cached.screenAddress({ ...subject, tenantId: 't2' })).rejects.toThrow()
    expect(asked()).toBe(3)
  })

  it('never keeps an outage: the next ask goes to the source', async () => {
    const { source, asked } = counting([
      async () => Promise.reject(new ScreeningUnavailableError('vendor')),
      async () => 'block',
    ])
    const cached = cachedScreening(source, { ttlMs: 60_000, now: () => 0 })
    await expect(cached.screenAddress(subject)).rejects.toMatchObject({ code: 'screening_unavailable' })
    expect((await cached.screenAddress(subject)).verdict).toBe('block')
    expect(asked()).toBe(2)
  })
})

describe('screenedAddress: one check per chain family', () => {
  it('keys an EVM address lowercase and refuses a bad checksum or another form', () => {
    expect(screenedAddress('evm', drainer)).toEqual({
      ok: true,
      family: 'evm',
      address: drainer,
      key: drainer.toLowerCase(),
    })
    const badChecksum = drainer.replace('aCC5', 'Acc5')
    expect(screenedAddress('evm', badChecksum)).toMatchObject({ ok: false })
    expect(screenedAddress('evm', '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h')).toMatchObject({ ok: false })
    // Solana: base58 of 32 bytes, case-sensitive, keyed as given; an EVM address is not one.
    const wrappedSol = 'So11111111111111111111111111111111111111112'
    expect(screenedAddress('solana', wrappedSol)).toEqual({
      ok: true,
      family: 'solana',
      address: wrappedSol,
      key: wrappedSol,
    })
    // 0, O, I and l are not base58.
    expect(screenedAddress('solana', wrappedSol.replace('So', 'SO'))).toMatchObject({ ok: false })
    expect(screenedAddress('solana', drainer)).toMatchObject({ ok: false })
    // The right alphabet and length, but 33 bytes once decoded.
    expect(screenedAddress('solana', 'z'.repeat(44))).toMatchObject({ ok: false })
  })
})

describe('import files', () => {
  it('reads address,reason CSV with a header, quoted reasons and CRLF', () => {
    const csv = `address,reason\r\n${drainer},"drainer, seen 2026-11-01"\r\n\r\n0xdead,short\r\n${watched}\r\n`
    expect(parseScreeningFile('csv', csv)).toEqual([
      { line: 2, address: drainer, reason: 'drainer, seen 2026-11-01' },
      { line: 4, address: '0xdead', reason: 'short' },
      { line: 5, address: watched },
    ])
  })

  it('reads the digital currency addresses of OFAC sdn.csv remarks, every currency', () => {
    const sdn = [
      '36 ,"AEROCARIBBEAN AIRLINES",-0- ,"CUBA",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ',
      `30552,"LAZARUS TEST GROUP","-0- ","DPRK3] [CYBER2",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"Digital Currency Address - XBT 12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h; alt. Digital Currency Address - ETH ${drainer}; Digital Currency Address - USDT ${watched}; Secondary sanctions risk: North Korea."`,
    ].join('\n')
    expect(parseScreeningFile('ofac_sdn_csv', sdn)).toEqual([
      {
        line: 2,
        address: '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h',
        reason: 'OFAC SDN: LAZARUS TEST GROUP (ent_num 30552, DPRK3] [CYBER2; XBT)',
      },
      {
        line: 2,
        address: drainer,
        reason: 'OFAC SDN: LAZARUS TEST GROUP (ent_num 30552, DPRK3] [CYBER2; ETH)',
      },
      {
        line: 2,
        address: watched,
        reason: 'OFAC SDN: LAZARUS TEST GROUP (ent_num 30552, DPRK3] [CYBER2; USDT)',
      },
    ])
  })

  it('reads the Digital Currency Address ids of OFAC sdn.xml', () => {
    const xml = `<?xml version="1.0" standalone="yes"?>
<sdnList xmlns="https://tempuri.org/sdnList.xsd">
  <sdnEntry>
    <uid>30552</uid>
    <lastName>SINBAD &amp; CO</lastName>
    <sdnType>Entity</sdnType>
    <programList><program>CYBER2</program><program>DPRK3</program></programList>
    <idList>
      <id><uid>1</uid><idType>Registration Number</idType><idNumber>12345</idNumber></id>
      <id><uid>2</uid><idType>Digital Currency Address - ETH</idType><idNumber>${drainer}</idNumber></id>
      <id><uid>3</uid><idType>Digital Currency Address - XBT</idType><idNumber>bc1qexample</idNumber></id>
    </idList>
  </sdnEntry>
</sdnList>`
    expect(parseScreeningFile('ofac_sdn_xml', xml)).toEqual([
      { line: 10, address: drainer, reason: 'OFAC SDN: SINBAD & CO (uid 30552, CYBER2, DPRK3; ETH)' },
      { line: 11, address: 'bc1qexample', reason: 'OFAC SDN: SINBAD & CO (uid 30552, CYBER2, DPRK3; XBT)' },
    ])
  })
})
