/**
 * Address ranges a webhook never reaches unless the operator allows them by CIDR: the IANA IPv4 and
 * IPv6 Special-Purpose Address Registries, multicast, and every IPv6 address outside 2000::/3 (the
 * only block IANA allocates global unicast from). Overlaps are deliberate: each range is named for
 * what it is, and the wide blocks catch whatever gets assigned later.
 */
export const specialPurposeRanges: readonly { cidr: string; name: string }[] = [
  { cidr: '0.0.0.0/8', name: 'this network' },
  { cidr: '10.0.0.0/8', name: 'private use' },
  { cidr: '100.64.0.0/10', name: 'shared address space (CGNAT)' },
  { cidr: '127.0.0.0/8', name: 'loopback' },
  { cidr: '169.254.0.0/16', name: 'link local' },
  { cidr: '172.16.0.0/12', name: 'private use' },
  { cidr: '192.0.0.0/24', name: 'IETF protocol assignments' },
  { cidr: '192.0.2.0/24', name: 'documentation (TEST-NET-1)' },
  { cidr: '192.31.196.0/24', name: 'AS112-v4' },
  { cidr: '192.52.193.0/24', name: 'AMT' },
  { cidr: '192.88.99.0/24', name: '6to4 relay anycast (deprecated)' },
  { cidr: '192.168.0.0/16', name: 'private use' },
  { cidr: '192.175.48.0/24', name: 'AS112 direct delegation' },
  { cidr: '198.18.0.0/15', name: 'benchmarking' },
  { cidr: '198.51.100.0/24', name: 'documentation (TEST-NET-2)' },
  { cidr: '203.0.113.0/24', name: 'documentation (TEST-NET-3)' },
  { cidr: '224.0.0.0/4', name: 'multicast' },
  { cidr: '240.0.0.0/4', name: 'reserved' },
  { cidr: '255.255.255.255/32', name: 'limited broadcast' },

  { cidr: '::/128', name: 'unspecified' },
  { cidr: '::1/128', name: 'loopback' },
  { cidr: '::/96', name: 'IPv4-compatible (deprecated)' },
  { cidr: '::ffff:0:0/96', name: 'IPv4-mapped' },
  { cidr: '::ffff:0:0:0/96', name: 'IPv4-translated' },
  { cidr: '64:ff9b::/96', name: 'NAT64 well-known prefix' },
  { cidr: '64:ff9b:1::/48', name: 'NAT64 local-use prefix' },
  { cidr: '100::/64', name: 'discard only' },
  { cidr: '100:0:0:1::/64', name: 'dummy prefix' },
  { cidr: '2001::/23', name: 'IETF protocol assignments' },
  { cidr: '2001::/32', name: 'Teredo' },
  { cidr: '2001:2::/48', name: 'benchmarking' },
  { cidr: '2001:db8::/32', name: 'documentation' },
  { cidr: '2002::/16', name: '6to4' },
  { cidr: '2620:4f:8000::/48', name: 'AS112 direct delegation' },
  { cidr: '3fff::/20', name: 'documentation' },
  { cidr: '5f00::/16', name: 'segment routing SIDs' },
  { cidr: 'fc00::/7', name: 'unique local' },
  { cidr: 'fe80::/10', name: 'link local' },
  { cidr: 'fec0::/10', name: 'site local (deprecated)' },
  { cidr: 'ff00::/8', name: 'multicast' },
  { cidr: '::/3', name: 'not global unicast (outside 2000::/3)' },
  { cidr: '4000::/2', name: 'not global unicast (outside 2000::/3)' },
  { cidr: '8000::/1', name: 'not global unicast (outside 2000::/3)' },
]

/**
 * IPv6 ranges that carry an IPv4 address, and where: byte offsets into the 16 bytes of the IPv6
 * address, one list per possible position (RFC 6052 lets a local-use NAT64 prefix be /48 to /96, so
 * each of those positions is read). Teredo hides its client's address inverted (`xor` 0xff). `::` and
 `::1` are in ::/96 but are not IPv4-compatible addresses (RFC 4291 §2.5.5.1): they are judged as themselves.
 */
export const embeddedIpv4Forms: readonly {
  cidr: string
  except?: string
  name: string
  at: number[][]
  xor?: number
}[] = [
  { cidr: '::/96', except: '::/127', name: 'IPv4-compatible', at: [[12, 13, 14, 15]] },
  { cidr: '::ffff:0:0/96', name: 'IPv4-mapped', at: [[12, 13, 14, 15]] },
  { cidr: '::ffff:0:0:0/96', name: 'IPv4-translated', at: [[12, 13, 14, 15]] },
  { cidr: '64:ff9b::/96', name: 'NAT64 well-known prefix', at: [[12, 13, 14, 15]] },
  {
    cidr: '64:ff9b:1::/48',
    name: 'NAT64 local-use prefix',
    at: [
      [6, 7, 9, 10],
      [7, 9, 10, 11],
      [9, 10, 11, 12],
      [12, 13, 14, 15],
    ],
  },
  { cidr: '2002::/16', name: '6to4', at: [[2, 3, 4, 5]] },
  { cidr: '2001::/32', name: 'Teredo server', at: [[4, 5, 6, 7]] },
  { cidr: '2001::/32', name: 'Teredo client', at: [[12, 13, 14, 15]], xor: 0xff },
]
