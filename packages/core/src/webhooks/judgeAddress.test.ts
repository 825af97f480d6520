import { describe, expect, it } from 'vitest'
import { assertCidrList, judgeAddress } from './judgeAddress.js'

describe('judgeAddress', () => {
  it('refuses every special-purpose range of both families, and an IPv4 carried in IPv6 as the IPv4 it is', () => {
    for (const address of [
      // What the probe got past subscribe.
      '64:ff9b::127.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '::127.0.0.1',
      '::ffff:0:127.0.0.1',
      '2002:7f00:1::',
      '2001::1',
      '192.0.2.1',
      '198.51.100.7',
      // The rest of the IPv4 registry, multicast and broadcast.
      '0.0.0.0',
      '10.1.2.3',
      '100.64.0.1',
      '127.0.0.1',
      '169.254.169.254',
      '172.16.0.1',
      '192.0.0.9',
      '192.88.99.1',
      '192.168.1.1',
      '198.18.0.1',
      '203.0.113.5',
      '224.0.0.1',
      '240.0.0.1',
      '255.255.255.255',
      // The IPv6 registry, and all outside 2000::/3.
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '64:ff9b:1::a00:1',
      '100::1',
      '2001:2::1',
      '2001:db8::1',
      '3fff::1',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'fec0::1',
      'ff02::1',
      '4000::1',
      // A public IPv4 in an embedding range is still refused: the range itself is.
      '::ffff:8.8.8.8',
      '64:ff9b::8.8.8.8',
      '2002:808:808::1',
      // Not an address, or scoped to a local interface.
      'example.com',
      'fe80::1%eth0',
    ]) {
      expect(judgeAddress(address), address).toBe('refused')
    }
  })

  it('lets public addresses of both families through', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '93.184.215.14', '2606:4700:4700::1111', '2a00:1450::1']) {
      expect(judgeAddress(address), address).toBe('public')
    }
  })

  it('lets exactly the allowed CIDRs through, each embedded IPv4 judged against them too', () => {
    const loopback = ['127.0.0.0/8', '::1/128']
    expect(judgeAddress('127.0.0.1', loopback)).toBe('allowed')
    expect(judgeAddress('127.255.0.1', loopback)).toBe('allowed')
    expect(judgeAddress('::1', loopback)).toBe('allowed')
    expect(judgeAddress('10.0.0.1', loopback)).toBe('refused')
    // Allowing 127/8 does not allow the v6 ranges that carry it, nor the reverse.
    expect(judgeAddress('::ffff:127.0.0.1', loopback)).toBe('refused')
    expect(judgeAddress('64:ff9b::127.0.0.1', loopback)).toBe('refused')
    expect(judgeAddress('::ffff:127.0.0.1', [...loopback, '::ffff:0:0/96'])).toBe('allowed')
    expect(judgeAddress('::ffff:10.0.0.1', [...loopback, '::ffff:0:0/96'])).toBe('refused')
    // Teredo's client address is stored inverted: 2001::…:80ff:fffe is client 127.0.0.1.
    expect(judgeAddress('2001:0:4136:e378:8000:63bf:80ff:fffe', ['2001::/32', '65.54.227.120/32'])).toBe(
      'refused',
    )
    expect(
      judgeAddress('2001:0:4136:e378:8000:63bf:80ff:fffe', ['2001::/32', '65.54.227.120/32', '127.0.0.1/32']),
    ).toBe('allowed')
    // One family's CIDR never stands for the other family.
    expect(judgeAddress('127.0.0.1', ['::ffff:0:0/96'])).toBe('refused')
    expect(judgeAddress('8.8.8.8', ['::ffff:0:0/96'])).toBe('public')
  })

  it('checks a CIDR list: bare addresses are one host, anything else is validation_failed', () => {
    expect(assertCidrList(['127.0.0.0/8', '::1/128', '10.0.0.5'])).toEqual([
      '127.0.0.0/8',
      '::1/128',
      '10.0.0.5',
    ])
    for (const bad of [
      'true',
      'localhost',
      '10.0.0.0/33',
      '::/129',
      '10.0.0.0/8/1',
      '10.0.0.0/x',
      '',
      'fe80::/10%eth0',
    ]) {
      expect(() => assertCidrList([bad]), bad).toThrowError(
        expect.objectContaining({ code: 'validation_failed' }),
      )
    }
  })
})
