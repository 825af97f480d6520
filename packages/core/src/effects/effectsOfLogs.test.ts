import { encodeAbiParameters, encodeEventTopics, getAddress, type Hex, maxUint160, pad, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'
import { effectAbis } from './effectAbis.js'
import { type EffectLog, effectsOfLogs } from './effectsOfLogs.js'

// Real: the USDC `Transfer` log of a devnet `transfer(0x7099…79C8, 5)` sent by 0xf39F…2266 (debug_traceCall, then mined).
const usdc = getAddress('0x55cd84c4accf171cb96476afc43734ab9dc65c2c')
const holder = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const bob = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const realTransfer: EffectLog = {
  address: '0x55cd84c4accf171cb96476afc43734ab9dc65c2c',
  topics: [
    '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
    '0x000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    '0x00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8',
  ],
  data: '0x0000000000000000000000000000000000000000000000000000000000000005',
}
const tokens = new Map([[usdc.toLowerCase(), { symbol: 'USDC', decimals: 6 }]])
const zero = '0x0000000000000000000000000000000000000000'
const erc20Events = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)'])

describe('effectsOfLogs', () => {
  it('reads an ERC-20 Transfer out of the holder as an out, and the same log as an in for the recipient', () => {
    expect(effectsOfLogs([realTransfer], { holder, tokens })).toEqual([
      {
        kind: 'out',
        asset: { standard: 'erc20', address: usdc, symbol: 'USDC', decimals: 6 },
        amount: 5n,
        counterparty: bob,
      },
    ])
    expect(effectsOfLogs([realTransfer], { holder: bob, tokens })).toEqual([
      expect.objectContaining({ kind: 'in', amount: 5n, counterparty: holder }),
    ])
  })

  it('adds up two moves to one recipient and ignores logs that do not name the holder', () => {
    const third = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
    const unrelated = { ...realTransfer, topics: [realTransfer.topics[0]!, pad(third), pad(bob)] }
    const effects = effectsOfLogs([realTransfer, realTransfer, unrelated], { holder, tokens })
    expect(effects).toEqual([expect.objectContaining({ kind: 'out', amount: 10n, counterparty: bob })])
  })

  it('names a token it was told nothing about UNKNOWN, with 0 decimals, rather than dropping its move', () => {
    expect(effectsOfLogs([realTransfer], { holder })).toEqual([
      expect.objectContaining({
        asset: { standard: 'erc20', address: usdc, symbol: 'UNKNOWN', decimals: 0 },
      }),
    ])
  })

  it('reads a wrapped coin Deposit from any contract, once when the same logs also mint it', () => {
    const weth = '0x59043547c469bb52C8F4b83ee144CBb9A8ec0002'
    const topics = encodeEventTopics({ abi: effectAbis.weth, eventName: 'Deposit', args: { dst: holder } })
    const deposit = {
      address: weth,
      topics,
      data: encodeAbiParameters([{ type: 'uint256' }], [7n]),
    } as EffectLog
    expect(effectsOfLogs([deposit], { holder })).toEqual([
      expect.objectContaining({ kind: 'in', amount: 7n, counterparty: weth }),
    ])
    // A wrapper that logs its mint as a Transfer too: one move in, not two.
    const mint = {
      address: weth,
      topics: encodeEventTopics({
        abi: erc20Events,
        eventName: 'Transfer',
        args: { from: zero, to: holder },
      }),
      data: encodeAbiParameters([{ type: 'uint256' }], [7n]),
    } as EffectLog
    expect(effectsOfLogs([deposit, mint], { holder })).toEqual([
      expect.objectContaining({ kind: 'in', amount: 7n, counterparty: zero }),
    ])
  })

  it("reads an ERC-4626 vault's Deposit and Withdraw as its shares in and out of the owner, once beside a mint", () => {
    const vault = getAddress('0x4a679253410272dd5232b3ff7cf5dbb88f295319')
    const deposit = {
      address: vault,
      topics: encodeEventTopics({
        abi: effectAbis.erc4626,
        eventName: 'Deposit',
        args: { sender: bob, owner: holder },
      }),
      data: encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [1_000n, 990n]),
    } as EffectLog
    const withdraw = {
      address: vault,
      topics: encodeEventTopics({
        abi: effectAbis.erc4626,
        eventName: 'Withdraw',
        args: { sender: holder, receiver: holder, owner: holder },
      }),
      data: encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [500n, 495n]),
    } as EffectLog
    expect(effectsOfLogs([deposit], { holder })).toEqual([
      expect.objectContaining({
        kind: 'in',
        amount: 990n,
        counterparty: vault,
        asset: expect.objectContaining({ address: vault }),
      }),
    ])
    expect(effectsOfLogs([withdraw], { holder })).toEqual([
      expect.objectContaining({ kind: 'out', amount: 495n, counterparty: vault }),
    ])
    // Deposited by someone else for another owner: nothing of the holder's.
    expect(effectsOfLogs([deposit], { holder: bob })).toEqual([])
    const mint = {
      address: vault,
      topics: encodeEventTopics({
        abi: erc20Events,
        eventName: 'Transfer',
        args: { from: zero, to: holder },
      }),
      data: encodeAbiParameters([{ type: 'uint256' }], [990n]),
    } as EffectLog
    expect(effectsOfLogs([deposit, mint], { holder })).toEqual([
      expect.objectContaining({ kind: 'in', amount: 990n, counterparty: zero }),
    ])
  })

  it('reads a Permit2 Approval as an allowance Permit2 holds on the token, unlimited at 2^160-1', () => {
    const permit2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3'
    const topics = encodeEventTopics({
      abi: effectAbis.permit2,
      eventName: 'Approval',
      args: { owner: holder, token: usdc, spender: bob },
    }) as Hex[]
    const data = encodeAbiParameters([{ type: 'uint160' }, { type: 'uint48' }], [maxUint160, 1_900_000_000])
    expect(effectsOfLogs([{ address: permit2, topics, data }], { holder, permit2, tokens })).toEqual([
      {
        kind: 'grant',
        asset: { standard: 'permit2', address: usdc, symbol: 'USDC', decimals: 6 },
        amount: maxUint160,
        unlimited: true,
        counterparty: bob,
      },
    ])
  })

  it('ignores a log that wears the Transfer topic but not its shape', () => {
    const malformed = { ...realTransfer, data: '0x' as const }
    const otherEvent = {
      ...realTransfer,
      topics: encodeEventTopics({
        abi: parseAbi(['event Sync(uint112 a, uint112 b)']),
        eventName: 'Sync',
      }) as Hex[],
    }
    expect(effectsOfLogs([malformed, otherEvent], { holder, tokens })).toEqual([])
  })
})
