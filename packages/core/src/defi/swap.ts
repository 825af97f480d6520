import { type Address, encodeFunctionData, erc20Abi, type Hex, parseEventLogs } from 'viem'
import type { z } from 'zod'
import type { ApprovalRecord } from '../approvals/types.js'
import { toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { type IdempotencyOptions, withIdempotency } from '../idempotency/withIdempotency.js'
import { stepIdempotency } from '../operations/stepMachine.js'
import type { Principal } from '../principals/types.js'
import { sessionDelegationsOf } from '../smartWallets/storedSession.js'
import { toApprovalSummary } from '../transactions/approvalSummary.js'
import { awaitConfirmed } from '../transactions/awaitConfirmed.js'
import { carrierFor, carrierNamed } from '../transactions/carrier.js'
import { viewOf } from '../transactions/sendAnswer.js'
import { type SubmitResult, submitIntent } from '../transactions/submitIntent.js'
import { type IncludedTransaction, isMined, type TransactionRecord } from '../transactions/types.js'
import { formatAmount, parseAmount } from '../utils/amounts.js'
import { actingWallet } from '../wallets/actingWallet.js'
import { requireAccountWallet } from '../wallets/requireAccountWallet.js'
import type { WalletRecord } from '../wallets/types.js'
import type { SwapParameters, swapAnswerSchema, swapSchema } from './defiSchemas.js'
import {
  defaultSlippageBps,
  planSwap,
  type QuoteSwapReturnType,
  quoteView,
  type SwapPlan,
} from './quoteSwap.js'
import { swapDeadline } from './swapDeadline.js'
import { type SwapStep, swapSteps } from './swapTypes.js'
import { trackPausedSwap } from './trackSwap.js'

/** One pass of a swap, with the stored records of its steps (the answer is `toSwapAnswer` of it). */
type SwapPassBase = QuoteSwapReturnType & {
  wallet: Address
  venue: string
  source: string
  slippageBps: number | null
  minAmountOut: string
  minAmountOutRaw: string
  deadline: string
}

/** The approve a short allowance needs paused for approval: no swap sent yet. */
export type AllowancePausedSwapPass = SwapPassBase & {
  status: 'pending_approval'
  allowanceTransaction: TransactionRecord
  transaction?: undefined
  approval: ApprovalRecord
  amountOut?: undefined
  amountOutRaw?: undefined
}

/** The swap itself paused for approval (after an approve that went through, if one was needed). */
export type SwapPausedSwapPass = SwapPassBase & {
  status: 'pending_approval'
  allowanceTransaction?: TransactionRecord | undefined
  transaction: TransactionRecord
  approval: ApprovalRecord
  amountOut?: undefined
  amountOutRaw?: undefined
}

/** Mined: what the wallet received, from the receipt. */
export type ConfirmedSwapPass = SwapPassBase & {
  status: 'confirmed'
  /** The ERC-20 approve sent first, when the allowance was short. */
  allowanceTransaction?: TransactionRecord | undefined
  transaction: IncludedTransaction
  approval?: undefined
  amountOut: string
  amountOutRaw: string
}

/**
 * How one pass of a swap ends: `confirmed` once the swap is mined; `pending_approval` when a human
 * must approve a step first (the approve, or the swap).
 */
export type SwapPass = AllowancePausedSwapPass | SwapPausedSwapPass | ConfirmedSwapPass

/**
 * Whether the pass sent the swap itself (paused on it, or mined).
 * @example const step = swapSent(pass) ? 'swap' : 'allowance'
 */
export function swapSent(pass: SwapPass): pass is SwapPausedSwapPass | ConfirmedSwapPass {
  return pass.transaction !== undefined
}

/**
 * Swaps exactly `amount` of `fromToken` for `toToken` at the best venue, through the money path:
 * policy sees kind 'swap' spending `amount` of `fromToken`. A short ERC-20 allowance is raised first
 * by an approve of exactly `amount` (kind 'contract_call', amount 0), which the swap then spends: no
 * allowance to the venue is left standing (an existing one smaller than `amount` ends at 0). From a
 * smart wallet the approve and the swap are one intent (`calls`): one user operation, all or none,
 * its effects judged as one; no `allowanceTransaction` then.
 * The swap carries a deadline and `amountOutMin` (from `minAmountOut`, else the best quote less
 * `slippageBps`, default 50), so the router reverts if the price moved; a best quote already below
 * `minAmountOut` is refused before anything is sent (`slippage_exceeded`). Resolves once mined.
 * A step paused for approval answers `pending_approval` with a `swapId`: the swap is then tracked
 * (`getSwap`) and its remaining steps run once approved — after an approved allowance it quotes
 * again and swaps, with the same `minAmountOut` or `slippageBps`.
 * @example const result = await swap(ctx, principal, { fromToken: 'ETH', toToken: 'USDC', amount: '0.5' })
 */
export async function swap(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof swapSchema>,
  options: IdempotencyOptions = {},
): Promise<SwapReturnType> {
  return withIdempotency(ctx, principal, 'defi.swap', input, options, async () => {
    const wallet = requireAccountWallet(await actingWallet(ctx, principal, input.wallet), 'swap')
    const chain = ctx.chains.get(input.chain ?? wallet.chain)
    const result = await runSwap(ctx, principal, wallet, chain, input)
    if (result.status === 'confirmed') return confirmedAnswer(ctx, result)
    const record = await trackPausedSwap(ctx, principal, wallet, chain, input, result)
    return pausedAnswer(ctx, result, record.id)
  })
}

export type SwapReturnType = z.infer<typeof swapAnswerSchema>

/** The answer of a mined swap. */
function confirmedAnswer(ctx: AgentWalletContext, pass: ConfirmedSwapPass): SwapReturnType {
  const { transaction, amountOut, amountOutRaw, status, ...rest } = pass
  return {
    ...sharedAnswer(ctx, rest),
    status,
    amountOut,
    amountOutRaw,
    transaction: viewOf(ctx, transaction),
    hash: transaction.hash,
  }
}

/** The answer of a paused swap: the tracked swap to follow (`swapId`) and the approval it waits for. */
function pausedAnswer(
  ctx: AgentWalletContext,
  pass: AllowancePausedSwapPass | SwapPausedSwapPass,
  swapId: string,
): SwapReturnType {
  const { transaction, approval, amountOut: _amountOut, amountOutRaw: _amountOutRaw, status, ...rest } = pass
  return {
    ...sharedAnswer(ctx, rest),
    status,
    transaction: transaction ? viewOf(ctx, transaction) : null,
    hash: null,
    approval: toApprovalSummary(approval),
    swapId,
  }
}

function sharedAnswer<Rest extends { allowanceTransaction?: TransactionRecord | undefined }>(
  ctx: AgentWalletContext,
  { allowanceTransaction, ...rest }: Rest,
) {
  return { ...rest, allowanceTransaction: allowanceTransaction ? viewOf(ctx, allowanceTransaction) : null }
}

/** What one pass of a swap is asked: the parsed request, without the acting wallet and chain. */
export type SwapInput = Omit<SwapParameters, 'wallet' | 'chain'>

/**
 * One pass: quote, then the allowance and the swap as far as the policy lets them go. `swapId`
 * (a tracked swap's later pass) makes each submit replay-safe under `swap:{id}:{step}` keys.
 * `approvedSpender` (the pass after an approved allowance) keeps the swap at a venue of that
 * spender when one still quotes, so the allowance it approved is the one spent, not left standing.
 */
export async function runSwap(
  ctx: AgentWalletContext,
  principal: Principal,
  wallet: WalletRecord,
  chain: ChainHandle,
  input: SwapInput,
  swapId?: string,
  approvedSpender?: Address | undefined,
): Promise<SwapPass> {
  const slippageBps = input.slippageBps ?? defaultSlippageBps
  const plan = withSpender(await planSwap(ctx, chain, input, wallet.address, slippageBps), approvedSpender)
  const { best, tokenOut } = plan
  requireSwappable(wallet, plan)
  const minAmountOut =
    input.minAmountOut !== undefined
      ? parseAmount(input.minAmountOut, tokenOut.decimals)
      : (best.amountOut * BigInt(10_000 - slippageBps)) / 10_000n
  if (best.amountOut < minAmountOut) {
    throw new BaseError(
      'slippage_exceeded',
      'The best quote is below the minimum amount out: nothing was sent',
      {
        details: {
          venue: best.venue,
          quoted: formatAmount(best.amountOut, tokenOut.decimals),
          minAmountOut: formatAmount(minAmountOut, tokenOut.decimals),
          symbol: tokenOut.symbol,
        },
      },
    )
  }
  const deadline = await swapDeadline(chain)
  const base = {
    ...quoteView(chain, plan),
    wallet: wallet.address,
    venue: best.venue,
    source: best.source,
    slippageBps: input.minAmountOut !== undefined ? null : slippageBps,
    minAmountOut: formatAmount(minAmountOut, tokenOut.decimals),
    minAmountOutRaw: minAmountOut.toString(),
    deadline: new Date(Number(deadline) * 1000).toISOString(),
  }

  // A smart wallet sends the approve a short allowance needs and the swap in one batch (one user
  // operation, judged as one); an EOA sends the approve first, as its own intent.
  const batched = carrierNamed(ctx, carrierFor(wallet, 'swap')).batches
  const allowance = batched ? undefined : await ensureAllowance(ctx, principal, wallet, chain, plan, swapId)
  if (allowance?.status === 'pending_approval') {
    return {
      ...base,
      status: 'pending_approval',
      allowanceTransaction: allowance.transaction,
      approval: allowance.approval,
    }
  }
  const approve = batched ? await allowanceCall(chain, wallet.address, plan) : undefined
  const call = await best.buildCall({ recipient: wallet.address, amountOutMin: minAmountOut, deadline })
  const submitted = await submitIntent(
    ctx,
    principal,
    wallet,
    {
      kind: 'swap',
      chain: chain.name,
      to: call.to,
      asset: { address: plan.tokenIn.address, symbol: plan.tokenIn.symbol, decimals: plan.tokenIn.decimals },
      amount: plan.amountIn,
      call,
      ...(approve ? { calls: [approve.call, call] } : {}),
      meta: {
        venue: best.venue,
        source: best.source,
        toToken: tokenOut.address,
        toSymbol: tokenOut.symbol,
        toDecimals: tokenOut.decimals,
        expectedAmountOut: best.amountOut.toString(),
        minAmountOut: minAmountOut.toString(),
        ...(approve ? { spender: best.spender, allowance: approve.allowance.toString() } : {}),
      },
    },
    replaySafe(swapId, 'swap'),
  )
  const allowanceTransaction = allowance?.transaction
  if (submitted.status === 'pending_approval') {
    return {
      ...base,
      status: 'pending_approval',
      allowanceTransaction,
      transaction: submitted.transaction,
      approval: submitted.approval,
    }
  }
  const mined = await awaitConfirmed(ctx, submitted, 'swap')
  const received = await receivedAmount(chain, tokenOut, wallet.address, mined)
  return {
    ...base,
    status: 'confirmed',
    amountOut: formatAmount(received, tokenOut.decimals),
    amountOutRaw: received.toString(),
    allowanceTransaction,
    transaction: mined,
  }
}

/**
 * Sends (and waits for) the approve `allowanceCall` finds needed, as an intent of its own (an EOA's).
 */
async function ensureAllowance(
  ctx: AgentWalletContext,
  principal: Principal,
  wallet: WalletRecord,
  chain: ChainHandle,
  plan: SwapPlan,
  swapId: string | undefined,
): Promise<SubmitResult | undefined> {
  const approve = await allowanceCall(chain, wallet.address, plan)
  if (!approve) return undefined
  const { tokenIn, best } = plan
  const submitted = await submitIntent(
    ctx,
    principal,
    wallet,
    {
      kind: 'contract_call',
      chain: chain.name,
      to: tokenIn.address as Address,
      asset: { address: tokenIn.address, symbol: tokenIn.symbol, decimals: tokenIn.decimals },
      amount: 0n,
      call: approve.call,
      meta: {
        purpose: 'swap_allowance',
        spender: best.spender,
        venue: best.venue,
        allowance: approve.allowance.toString(),
      },
    },
    replaySafe(swapId, 'allowance'),
  )
  if (submitted.status === 'pending_approval') return submitted
  return { status: 'confirmed', transaction: await awaitConfirmed(ctx, submitted, 'approve') }
}

/**
 * The approve of exactly the amount to the venue's spender, when its allowance is below it; none
 * for native sells. Never more: an unlimited allowance would outlive the swap, letting the venue
 * (or whoever controls it later) pull the wallet's tokens without another intent.
 */
async function allowanceCall(
  chain: ChainHandle,
  owner: Address,
  { tokenIn, amountIn, best }: SwapPlan,
): Promise<{ call: { to: Address; value: bigint; data: Hex }; allowance: bigint } | undefined> {
  if (tokenIn.address === 'native') return undefined
  const current = await chain.client
    .readContract({
      address: tokenIn.address,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [owner, best.spender],
    })
    .catch((error: unknown) => {
      throw toChainError(error, chain.name)
    })
  if (current >= amountIn) return undefined
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [best.spender, amountIn] })
  return { call: { to: tokenIn.address, value: 0n, data }, allowance: amountIn }
}

/**
 * A smart wallet sells only a token its session key may move by any call: one the rules meter on chain
 * (a `spend_limit` compiled into a transfer-only allowance, `permissionsFromRules`) would make the
 * swap revert inside its op, so it is refused before anything is signed or saved.
 */
function requireSwappable(wallet: WalletRecord, { tokenIn }: SwapPlan): void {
  if (!wallet.smart || tokenIn.address === 'native') return
  const token = tokenIn.address.toLowerCase()
  const metered = sessionDelegationsOf(wallet.smart.session).transfers.some(
    (transfer) => transfer.token.toLowerCase() === token,
  )
  if (!metered) return
  throw new BaseError(
    'wallet_kind_unsupported',
    `This smart wallet's session key may only transfer ${tokenIn.symbol} (its allowance is held on chain), not swap it`,
    { details: { wallet: wallet.address, kind: 'smart', flow: 'swap', token: tokenIn.address } },
  )
}

/** The plan with its best quote among those `spender` pulls for, when it has one. */
function withSpender(plan: SwapPlan, spender: Address | undefined): SwapPlan {
  const best = spender && plan.quotes.find((quote) => quote.spender.toLowerCase() === spender.toLowerCase())
  return best ? { ...plan, best } : plan
}

/** Idempotency for a tracked swap's step: a resumed pass replays what an earlier pass sent. */
function replaySafe(swapId: string | undefined, step: SwapStep) {
  return swapId === undefined ? {} : stepIdempotency(swapSteps, swapId, step)
}

/** What the swap paid the wallet: token Transfer logs, or the native balance change net of gas (the including tx's). */
export async function receivedAmount(
  chain: ChainHandle,
  tokenOut: { address: string },
  recipient: Address,
  mined: IncludedTransaction,
): Promise<bigint> {
  const receipt = await chain.client.getTransactionReceipt({ hash: mined.hash })
  if (tokenOut.address !== 'native') {
    // An address, or 'native' for the chain's coin.
    const token = tokenOut.address.toLowerCase()
    const transfers = parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: 'Transfer' })
    return transfers
      .filter(
        (log) => log.address.toLowerCase() === token && log.args.to.toLowerCase() === recipient.toLowerCase(),
      )
      .reduce((sum, log) => sum + log.args.value, 0n)
  }
  const [before, after] = await Promise.all([
    chain.client.getBalance({ address: recipient, blockNumber: receipt.blockNumber - 1n }),
    chain.client.getBalance({ address: recipient, blockNumber: receipt.blockNumber }),
  ])
  // The wallet paid its own tx's gas from that balance; a user operation's was paid from its session's deposit.
  const gas = isMined(mined) ? receipt.gasUsed * receipt.effectiveGasPrice : 0n
  return after - before + gas
}
