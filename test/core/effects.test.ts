import {
  type ChainHandle,
  decodeEffects,
  type Effect,
  effectsOfLogs,
  mergeEffects,
  predictEffects,
  safeAbi,
  safeProxyFactoryAbi,
  simulateEffects,
} from '@agentwallet/core'
import {
  allowanceDrainerAbi,
  type Devnet,
  multiSendAbi,
  testMultiTokenAbi,
  testNftAbi,
  testTokenAbi,
  wethAbi,
} from '@agentwallet/devnet'
import {
  type Address,
  concat,
  createPublicClient,
  custom,
  encodeEventTopics,
  encodeFunctionData,
  encodePacked,
  erc20Abi,
  type Hex,
  http,
  maxUint160,
  maxUint256,
  type PublicClient,
  pad,
  parseAbi,
  parseEther,
  parseEventLogs,
  parseUnits,
  size,
  zeroAddress,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshAddress, publicClientOf, startDevnet } from '../helpers/devnetAgentWallet.js'
import { chainHandleOf, deployDevnetContract, fundedSigner } from '../helpers/effectsDevnet.js'

let devnet: Devnet
let chain: ChainHandle
let client: PublicClient
let holder: Awaited<ReturnType<typeof fundedSigner>>
let usdc: Address
let dai: Address
let weth: Address
let nft: Address
let multi: Address
let safe: Address

/** Sends `call` from the holder for real and waits for its receipt. */
async function send(call: { to: Address; value?: bigint; data?: Hex }) {
  const hash = await holder.sendTransaction({ ...call, account: holder.account!, chain: devnet.chain })
  const receipt = await client.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success') throw new Error(`set-up call to ${call.to} reverted`)
  return receipt
}

/** Effects in one order, so a decoded list and a simulated one compare as sets. */
function sorted(effects: readonly Effect[]): Effect[] {
  const key = (effect: Effect) =>
    [effect.kind, effect.asset.address, effect.asset.tokenId ?? '', effect.counterparty]
      .join(':')
      .toLowerCase()
  return mergeEffects(effects).sort((a, b) => key(a).localeCompare(key(b)))
}

/** The holder's Safe (1 of 1) executes `inner`: the owner's signature is its own call (v = 1). */
function execTransaction(inner: { to: Address; value?: bigint; data?: Hex; operation?: number }): Hex {
  const signature = concat([pad(holder.address), pad('0x00'), '0x01'])
  return encodeFunctionData({
    abi: safeAbi,
    functionName: 'execTransaction',
    args: [
      inner.to,
      inner.value ?? 0n,
      inner.data ?? '0x',
      inner.operation ?? 0,
      0n,
      0n,
      0n,
      zeroAddress,
      zeroAddress,
      signature,
    ],
  })
}

function multiSend(calls: { to: Address; value?: bigint; data?: Hex }[]): Hex {
  const packed = concat(
    calls.map((call) =>
      encodePacked(
        ['uint8', 'address', 'uint256', 'uint256', 'bytes'],
        [0, call.to, call.value ?? 0n, BigInt(size(call.data ?? '0x')), call.data ?? '0x'],
      ),
    ),
  )
  return encodeFunctionData({ abi: multiSendAbi, functionName: 'multiSend', args: [packed] })
}

const erc20 = (functionName: 'transfer' | 'approve', args: readonly [Address, bigint]) =>
  encodeFunctionData({ abi: erc20Abi, functionName, args })

beforeAll(async () => {
  devnet = await startDevnet()
  client = publicClientOf(devnet)
  chain = chainHandleOf(devnet, client)
  holder = await fundedSigner(devnet, '100')
  const token = (symbol: string) =>
    devnet.addressBook.tokens.find((entry) => entry.symbol === symbol)!.address
  usdc = token('USDC')
  dai = token('DAI')
  weth = devnet.addressBook.weth
  await devnet.mintToken('USDC', holder.address, parseUnits('1000', 6))
  await devnet.mintToken('DAI', holder.address, parseUnits('1000', 18))
  nft = await deployDevnetContract(devnet, holder, 'TestNft', ['Devnet Apes', 'APE'])
  multi = await deployDevnetContract(devnet, holder, 'TestMultiToken')
  for (const id of [1n, 2n, 3n, 4n])
    await send({
      to: nft,
      data: encodeFunctionData({ abi: testNftAbi, functionName: 'mint', args: [holder.address, id] }),
    })
  await send({
    to: multi,
    data: encodeFunctionData({
      abi: testMultiTokenAbi,
      functionName: 'mint',
      args: [holder.address, 1n, 50n],
    }),
  })
  await send({
    to: multi,
    data: encodeFunctionData({
      abi: testMultiTokenAbi,
      functionName: 'mint',
      args: [holder.address, 2n, 50n],
    }),
  })
  // transferFrom out of one's own balance spends one's own allowance (OpenZeppelin 5).
  await send({ to: usdc, data: erc20('approve', [holder.address, parseUnits('10', 6)]) })
  await send({
    to: weth,
    value: parseEther('1'),
    data: encodeFunctionData({ abi: wethAbi, functionName: 'deposit' }),
  })
  // A 1-of-1 Safe the holder owns, holding coins and tokens of its own.
  const { safe: safeBook } = devnet.addressBook
  const setup = encodeFunctionData({
    abi: safeAbi,
    functionName: 'setup',
    args: [[holder.address], 1n, zeroAddress, '0x', safeBook.fallbackHandler, zeroAddress, 0n, zeroAddress],
  })
  const created = await send({
    to: safeBook.proxyFactory,
    data: encodeFunctionData({
      abi: safeProxyFactoryAbi,
      functionName: 'createProxyWithNonce',
      args: [safeBook.singletonL2, setup, 1n],
    }),
  })
  safe = parseEventLogs({ abi: safeProxyFactoryAbi, logs: created.logs, eventName: 'ProxyCreation' })[0]!.args
    .proxy
  await devnet.faucet(safe, parseEther('5'))
  await devnet.mintToken('USDC', safe, parseUnits('100', 6))
})
afterAll(() => devnet?.close())

describe('predictEffects decodes the standard calls', () => {
  it('reads an ERC-20 transfer sent with no value as the token leaving the wallet, not as a call of 0', async () => {
    const attacker = freshAddress()
    const data = erc20('transfer', [attacker, 5_000_000n])
    const effects = await predictEffects(chain, { from: holder.address }, { to: usdc, value: 0n, data })
    expect(effects).toEqual({
      status: 'known',
      source: 'decoded',
      effects: [
        {
          kind: 'out',
          asset: { standard: 'erc20', address: usdc, symbol: 'USDC', decimals: 6 },
          amount: 5_000_000n,
          counterparty: attacker,
        },
      ],
    })
  })

  it('reads approve(attacker, 2^256-1) as an unlimited grant', async () => {
    const attacker = freshAddress()
    const data = erc20('approve', [attacker, maxUint256])
    const effects = await predictEffects(chain, { from: holder.address }, { to: usdc, value: 0n, data })
    expect(effects.status === 'known' && effects.effects).toEqual([
      expect.objectContaining({ kind: 'grant', amount: maxUint256, unlimited: true, counterparty: attacker }),
    ])
  })

  it('tells an ERC-721 approve from an ERC-20 one by asking the contract (ERC-165)', async () => {
    const spender = freshAddress()
    const data = encodeFunctionData({ abi: testNftAbi, functionName: 'approve', args: [spender, 3n] })
    const effects = await predictEffects(chain, { from: holder.address }, { to: nft, value: 0n, data })
    expect(effects.status === 'known' && effects.effects).toEqual([
      {
        kind: 'grant',
        asset: { standard: 'erc721', address: nft, symbol: 'APE', decimals: 0, tokenId: 3n },
        amount: 1n,
        counterparty: spender,
      },
    ])
  })

  it('reads a Permit2 approve as an allowance Permit2 holds on the token (decoded only: no Permit2 bytecode ships on npm)', async () => {
    const spender = freshAddress()
    const permit2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3'
    const data = encodeFunctionData({
      abi: parseAbi(['function approve(address token, address spender, uint160 amount, uint48 expiration)']),
      functionName: 'approve',
      args: [usdc, spender, maxUint160, 1_900_000_000],
    })
    const effects = await predictEffects(chain, { from: holder.address }, { to: permit2, value: 0n, data })
    expect(effects).toEqual({
      status: 'known',
      source: 'decoded',
      effects: [
        {
          kind: 'grant',
          asset: { standard: 'permit2', address: usdc, symbol: 'USDC', decimals: 6 },
          amount: maxUint160,
          unlimited: true,
          counterparty: spender,
        },
      ],
    })
  })

  it('decodes a plain transfer to an account without code, and simulates one to a contract', async () => {
    const to = freshAddress()
    const plain = await predictEffects(chain, { from: holder.address }, { to, value: parseEther('1') })
    expect(plain).toEqual({
      status: 'known',
      source: 'decoded',
      effects: [
        {
          kind: 'out',
          asset: { standard: 'native', address: 'native', symbol: 'ETH', decimals: 18 },
          amount: parseEther('1'),
          counterparty: to,
        },
      ],
    })
    const toContract = await predictEffects(chain, { from: holder.address }, { to: safe, value: 1n })
    expect(toContract).toMatchObject({ status: 'known', source: 'simulated' })
  })
})

describe('for the standard calls, decoded and simulated effects agree (and match the mined receipt)', () => {
  const someone = freshAddress()
  /** Each row: a call from the holder (or its Safe's execution), and whether its receipt's logs tell it all. */
  const rows: {
    name: string
    call: () => { to: Address; value?: bigint; data?: Hex }
    safe?: true
    logsTellAll?: false
  }[] = [
    { name: 'plain native transfer', call: () => ({ to: someone, value: 12345n }), logsTellAll: false },
    { name: 'ERC-20 transfer', call: () => ({ to: usdc, data: erc20('transfer', [someone, 7_000_000n]) }) },
    {
      name: 'ERC-20 transferFrom out of the holder',
      call: () => ({
        to: usdc,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'transferFrom',
          args: [holder.address, someone, 3_000_000n],
        }),
      }),
    },
    { name: 'ERC-20 approve', call: () => ({ to: usdc, data: erc20('approve', [someone, 42n]) }) },
    {
      name: 'ERC-20 approve, unlimited',
      call: () => ({ to: dai, data: erc20('approve', [someone, maxUint256]) }),
    },
    {
      name: 'ERC-20 increaseAllowance',
      call: () => ({
        to: dai,
        data: encodeFunctionData({
          abi: testTokenAbi,
          functionName: 'increaseAllowance',
          args: [someone, 9n],
        }),
      }),
    },
    {
      name: 'ERC-721 transferFrom',
      call: () => ({
        to: nft,
        data: encodeFunctionData({
          abi: testNftAbi,
          functionName: 'transferFrom',
          args: [holder.address, someone, 1n],
        }),
      }),
    },
    {
      name: 'ERC-721 safeTransferFrom(from, to, id)',
      call: () => ({
        to: nft,
        data: encodeFunctionData({
          abi: testNftAbi,
          functionName: 'safeTransferFrom',
          args: [holder.address, someone, 2n],
        }),
      }),
    },
    {
      name: 'ERC-721 safeTransferFrom(from, to, id, data)',
      call: () => ({
        to: nft,
        data: encodeFunctionData({
          abi: testNftAbi,
          functionName: 'safeTransferFrom',
          args: [holder.address, someone, 2n, '0xbeef'],
        }),
      }),
    },
    {
      name: 'ERC-721 approve',
      call: () => ({
        to: nft,
        data: encodeFunctionData({ abi: testNftAbi, functionName: 'approve', args: [someone, 4n] }),
      }),
    },
    {
      name: 'ERC-721 setApprovalForAll',
      call: () => ({
        to: nft,
        data: encodeFunctionData({
          abi: testNftAbi,
          functionName: 'setApprovalForAll',
          args: [someone, true],
        }),
      }),
    },
    {
      name: 'ERC-721 setApprovalForAll(false)',
      call: () => ({
        to: nft,
        data: encodeFunctionData({
          abi: testNftAbi,
          functionName: 'setApprovalForAll',
          args: [someone, false],
        }),
      }),
    },
    {
      name: 'ERC-1155 safeTransferFrom',
      call: () => ({
        to: multi,
        data: encodeFunctionData({
          abi: testMultiTokenAbi,
          functionName: 'safeTransferFrom',
          args: [holder.address, someone, 1n, 5n, '0x'],
        }),
      }),
    },
    {
      name: 'ERC-1155 safeBatchTransferFrom',
      call: () => ({
        to: multi,
        data: encodeFunctionData({
          abi: testMultiTokenAbi,
          functionName: 'safeBatchTransferFrom',
          args: [holder.address, someone, [1n, 2n], [5n, 6n], '0x'],
        }),
      }),
    },
    {
      name: 'ERC-1155 setApprovalForAll',
      call: () => ({
        to: multi,
        data: encodeFunctionData({
          abi: testMultiTokenAbi,
          functionName: 'setApprovalForAll',
          args: [someone, true],
        }),
      }),
    },
    {
      name: 'WETH deposit',
      call: () => ({
        to: weth,
        value: 777n,
        data: encodeFunctionData({ abi: wethAbi, functionName: 'deposit' }),
      }),
      logsTellAll: false,
    },
    {
      name: 'WETH withdraw',
      call: () => ({
        to: weth,
        data: encodeFunctionData({ abi: wethAbi, functionName: 'withdraw', args: [555n] }),
      }),
      logsTellAll: false,
    },
    {
      name: 'WETH transfer (an ERC-20 call of WETH)',
      call: () => ({ to: weth, data: erc20('transfer', [someone, 333n]) }),
    },
    {
      name: "a Safe's execTransaction of an ERC-20 transfer",
      safe: true,
      call: () => ({
        to: safe,
        data: execTransaction({ to: usdc, data: erc20('transfer', [someone, 2_000_000n]) }),
      }),
    },
    {
      name: "a Safe's MultiSend batch: coins, two token transfers and an approve",
      safe: true,
      call: () => ({
        to: safe,
        data: execTransaction({
          to: devnet.addressBook.safe.multiSendCallOnly ?? devnet.addressBook.safe.multiSend,
          operation: 1,
          data: multiSend([
            { to: someone, value: 1000n },
            { to: usdc, data: erc20('transfer', [someone, 1_000_000n]) },
            { to: usdc, data: erc20('transfer', [someone, 500_000n]) },
            { to: usdc, data: erc20('approve', [someone, 8n]) },
          ]),
        }),
      }),
      logsTellAll: false,
    },
  ]

  it.each(rows)('$name', async (row) => {
    const call = { value: 0n, ...row.call() }
    const accounts = { from: holder.address, holder: row.safe ? safe : holder.address }
    const decoded = await decodeEffects(chain, accounts, call)
    expect(decoded, 'the calldata alone tells this call').toBeDefined()
    expect(decoded!.length).toBeGreaterThan(0)
    const simulated = await simulateEffects(chain, accounts, call)
    expect(simulated).toMatchObject({ status: 'known', source: 'simulated' })
    expect(sorted(decoded!)).toEqual(sorted(simulated.status === 'known' ? simulated.effects : []))

    // Mined for real (then undone): the receipt's logs tell the same, but native moves inside the tree.
    const snapshot = await devnet.provider.request({ method: 'evm_snapshot', params: [] })
    try {
      const receipt = await send(call)
      const fromLogs = effectsOfLogs(receipt.logs, {
        holder: accounts.holder,
        tokens: new Map(
          [usdc, dai, weth, nft, multi].map((address, index) => [
            address.toLowerCase(),
            [
              { symbol: 'USDC', decimals: 6 },
              { symbol: 'DAI', decimals: 18 },
              { symbol: 'WETH', decimals: 18 },
              { symbol: 'APE', decimals: 0 },
              { symbol: 'ERC1155', decimals: 0, standard: 'erc1155' as const },
            ][index]!,
          ]),
        ),
      })
      const tokenEffects = decoded!.filter((effect) => effect.asset.standard !== 'native')
      if (row.logsTellAll === false) expect(sorted(fromLogs)).toEqual(sorted(tokenEffects))
      else expect(sorted(fromLogs)).toEqual(sorted(decoded!))
    } finally {
      await devnet.provider.request({ method: 'evm_revert', params: [snapshot] })
    }
  })

  it('decreaseAllowance: decoded, the revoke of the amount; simulated, a grant of what is left (logs do not tell what was)', async () => {
    const spender = freshAddress()
    await send({ to: dai, data: erc20('approve', [spender, 10n]) })
    const call = {
      to: dai,
      value: 0n,
      data: encodeFunctionData({ abi: testTokenAbi, functionName: 'decreaseAllowance', args: [spender, 4n] }),
    }
    const decoded = await decodeEffects(chain, { from: holder.address }, call)
    const simulated = await simulateEffects(chain, { from: holder.address }, call)
    expect(decoded).toEqual([expect.objectContaining({ kind: 'revoke', amount: 4n, counterparty: spender })])
    expect(simulated.status === 'known' && simulated.effects).toEqual([
      expect.objectContaining({ kind: 'grant', amount: 6n, counterparty: spender }),
    ])
  })
})

describe('predictEffects simulates what it cannot decode', () => {
  it('shows the token leaving through an allowance granted earlier, in a call that moves no value and names no token', async () => {
    const receiver = freshAddress()
    const drainer = await deployDevnetContract(devnet, holder, 'AllowanceDrainer', [usdc, receiver])
    await send({ to: usdc, data: erc20('approve', [drainer, parseUnits('50', 6)]) })
    const claim = encodeFunctionData({ abi: allowanceDrainerAbi, functionName: 'claim' })
    const effects = await predictEffects(
      chain,
      { from: holder.address },
      { to: drainer, value: 0n, data: claim },
    )
    expect(effects).toMatchObject({ status: 'known', source: 'simulated' })
    expect(effects.status === 'known' && effects.effects).toEqual([
      {
        kind: 'out',
        asset: { standard: 'erc20', address: usdc, symbol: 'USDC', decimals: 6 },
        amount: parseUnits('50', 6),
        counterparty: receiver,
      },
    ])
    expect(effects.status === 'known' && effects.gasUsed).toBeGreaterThan(21_000n)

    // A plain transfer to it runs its receive(), which drains too: it is simulated, not decoded.
    const plain = await predictEffects(chain, { from: holder.address }, { to: drainer, value: 1000n })
    expect(plain).toMatchObject({ status: 'known', source: 'simulated' })
    const plainEffects = plain.status === 'known' ? plain.effects : []
    expect(plainEffects).toHaveLength(2)
    expect(plainEffects).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'out',
          asset: expect.objectContaining({ standard: 'native' }),
          amount: 1000n,
          counterparty: drainer,
        }),
        expect.objectContaining({
          kind: 'out',
          asset: expect.objectContaining({ address: usdc }),
          counterparty: receiver,
        }),
      ]),
    )
  })

  it('reads a wrapped coin moving in and out on a chain whose address book does not name that WETH', async () => {
    // As on a node given no address book (anvil): WETH9 logs Deposit and Withdrawal, never Transfer.
    const unnamed: ChainHandle = { ...chain, contracts: { ...chain.contracts, weth: undefined } }
    const deposit = {
      to: weth,
      value: parseEther('0.5'),
      data: encodeFunctionData({ abi: wethAbi, functionName: 'deposit' }),
    }
    const wrapped = await simulateEffects(unnamed, { from: holder.address }, deposit)
    expect(wrapped).toMatchObject({ status: 'known', source: 'simulated' })
    const effects = wrapped.status === 'known' ? wrapped.effects : []
    expect(effects).toHaveLength(2)
    expect(effects).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'out',
          asset: expect.objectContaining({ standard: 'native' }),
          amount: parseEther('0.5'),
        }),
        expect.objectContaining({
          kind: 'in',
          asset: expect.objectContaining({ standard: 'erc20', address: weth, symbol: 'WETH' }),
          amount: parseEther('0.5'),
        }),
      ]),
    )
    const snapshot = await devnet.provider.request({ method: 'evm_snapshot', params: [] })
    try {
      await send(deposit)
      const withdraw = {
        to: weth,
        value: 0n,
        data: encodeFunctionData({ abi: wethAbi, functionName: 'withdraw', args: [parseEther('0.2')] }),
      }
      const unwrapped = await simulateEffects(unnamed, { from: holder.address }, withdraw)
      expect(unwrapped.status === 'known' ? unwrapped.effects : []).toContainEqual(
        expect.objectContaining({
          kind: 'out',
          asset: expect.objectContaining({ address: weth }),
          amount: parseEther('0.2'),
        }),
      )
    } finally {
      await devnet.provider.request({ method: 'evm_revert', params: [snapshot] })
    }
  })

  it('a call that would revert is reverted, with the revert data', async () => {
    const tooMuch = erc20('transfer', [freshAddress(), parseUnits('1000000', 6)])
    const effects = await simulateEffects(
      chain,
      { from: holder.address },
      { to: usdc, value: 0n, data: tooMuch },
    )
    expect(effects).toMatchObject({ status: 'reverted', source: 'simulated' })
    // OpenZeppelin 5's ERC20InsufficientBalance(address,uint256,uint256).
    expect(effects.status === 'reverted' && effects.data?.slice(0, 10)).toBe('0xe450d38c')
  })

  it('reads an eth_simulateV1 answer (traceTransfers) as it reads a trace, and asks no trace of a node that has it', async () => {
    // The devnet has no eth_simulateV1: this node answers it from the devnet's own trace of the same call,
    // in the execution-apis shape (logs flattened, native moves as Transfer logs of 0xEeee…EEeE).
    const asked: string[] = []
    const trace = (params: unknown[]) =>
      devnet.provider.request({
        method: 'debug_traceCall',
        params: [params[0], 'pending', { tracer: 'callTracer', tracerConfig: { withLog: true } }],
      }) as Promise<Frame>
    type Frame = {
      type: string
      from: Address
      to: Address
      value?: Hex
      gasUsed: Hex
      output?: Hex
      error?: string
    }
    type Tree = Frame & { logs?: { address: Address; topics: Hex[]; data: Hex }[]; calls?: Tree[] }
    const flatten = (frame: Tree): { address: Address; topics: Hex[]; data: Hex }[] => {
      if (frame.error) return []
      const moved =
        frame.type === 'CALL' && frame.value && BigInt(frame.value) > 0n
          ? [
              {
                address: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE' as Address,
                topics: encodeEventTopics({
                  abi: erc20Abi,
                  eventName: 'Transfer',
                  args: { from: frame.from, to: frame.to },
                }) as Hex[],
                data: pad(frame.value),
              },
            ]
          : []
      return [...moved, ...(frame.logs ?? []), ...(frame.calls ?? []).flatMap(flatten)]
    }
    const simulating = createPublicClient({
      chain: devnet.chain,
      transport: custom({
        async request(args: { method: string; params?: unknown }) {
          asked.push(args.method)
          if (args.method !== 'eth_simulateV1') return devnet.provider.request(args as never)
          const [{ blockStateCalls }] = args.params as [{ blockStateCalls: [{ calls: unknown[] }] }]
          const top = (await trace(blockStateCalls[0].calls)) as Tree
          const call = top.error
            ? {
                status: '0x0',
                returnData: top.output ?? '0x',
                gasUsed: top.gasUsed,
                logs: [],
                error: { code: 3, message: top.error, data: top.output },
              }
            : { status: '0x1', returnData: top.output ?? '0x', gasUsed: top.gasUsed, logs: flatten(top) }
          return [{ calls: [call] }]
        },
      }),
    }) as PublicClient
    const simulatingChain = chainHandleOf(devnet, simulating)
    const receiver = freshAddress()
    const drainer = await deployDevnetContract(devnet, holder, 'AllowanceDrainer', [usdc, receiver])
    await send({ to: usdc, data: erc20('approve', [drainer, 3_000_000n]) })
    const call = { to: drainer, value: 2000n }
    const viaSimulate = await predictEffects(simulatingChain, { from: holder.address }, call)
    const viaTrace = await predictEffects(chain, { from: holder.address }, call)
    expect(viaSimulate).toMatchObject({ status: 'known', source: 'simulated' })
    expect(viaSimulate.status === 'known' && viaSimulate.effects).toHaveLength(2)
    expect(viaSimulate).toEqual(viaTrace)
    expect(asked).toContain('eth_simulateV1')
    expect(asked).not.toContain('debug_traceCall')

    const tooMuch = erc20('transfer', [freshAddress(), parseUnits('1000000', 6)])
    const reverted = await simulateEffects(
      simulatingChain,
      { from: holder.address },
      { to: usdc, value: 0n, data: tooMuch },
    )
    expect(reverted).toMatchObject({ status: 'reverted', source: 'simulated' })
    expect(reverted.status === 'reverted' && reverted.data?.slice(0, 10)).toBe('0xe450d38c')
  })

  it('a node that refuses both simulation methods gives unknown, and is not asked again', async () => {
    const asked: string[] = []
    const refusing = createPublicClient({
      chain: devnet.chain,
      transport: custom({
        async request(args: { method: string; params?: unknown }) {
          asked.push(args.method)
          if (args.method === 'eth_simulateV1' || args.method === 'debug_traceCall') {
            throw Object.assign(new Error('the method does not exist'), { code: -32601 })
          }
          return devnet.provider.request(args as never)
        },
      }),
    }) as PublicClient
    const refusingChain = chainHandleOf(devnet, refusing)
    const call = { to: safe, value: 1n }
    const first = await predictEffects(refusingChain, { from: holder.address }, call)
    expect(first).toMatchObject({ status: 'unknown' })
    const second = await predictEffects(refusingChain, { from: holder.address }, call)
    expect(second).toMatchObject({ status: 'unknown' })
    expect(asked.filter((method) => method === 'eth_simulateV1' || method === 'debug_traceCall')).toEqual([
      'eth_simulateV1',
      'debug_traceCall',
    ])
  })

  it('a node that does not answer throws chain_unavailable, never unknown nor no effects', async () => {
    const silent = createPublicClient({
      chain: devnet.chain,
      transport: http('http://127.0.0.1:9', { retryCount: 0, timeout: 2_000 }),
    }) as PublicClient
    const silentChain = chainHandleOf(devnet, silent)
    const call = {
      to: usdc,
      value: 0n,
      data: encodeFunctionData({ abi: allowanceDrainerAbi, functionName: 'claim' }),
    }
    await expect(simulateEffects(silentChain, { from: holder.address }, call)).rejects.toMatchObject({
      code: 'chain_unavailable',
    })
    await expect(predictEffects(silentChain, { from: holder.address }, call)).rejects.toMatchObject({
      code: 'chain_unavailable',
    })
  })
})
