import { x402Client, x402HTTPClient } from '@x402/core/client'
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types'
import { type Address, formatUnits, getAddress, isAddress } from 'viem'
import type { ChainHandle, TokenInfo } from '../chain/types.js'
import { BaseError } from '../errors/baseError.js'

/** One accepted way to pay that this wallet can use, with the token it moves. */
export type ChosenRequirement = {
  paymentRequired: PaymentRequired
  requirement: PaymentRequirements
  token: TokenInfo
  payee: Address
  amount: bigint
}

/** Reads x402 headers (no signer is needed to parse or encode them). */
export const x402Http = new x402HTTPClient(new x402Client())

/**
 * Parses a 402 answer's `PAYMENT-REQUIRED` (x402 v2) and picks the first requirement this chain can
 * pay: scheme `exact` by EIP-3009, network `eip155:<chainId>`, an asset in the address book, a
 * well-formed payee, amount and timeout, and no more than `maxAmount`. Refuses before anything is
 * signed: malformed or expired requirements are `payment_requirements_invalid` (502); none payable
 * here, or only above `maxAmount`, `payment_not_payable` (422), with every requirement's reason.
 * @example const chosen = chooseRequirement(chain, (name) => answer.headers.get(name), '0.10')
 */
export function chooseRequirement(
  chain: ChainHandle,
  header: (name: string) => string | null,
  maxAmount: string | undefined,
): ChosenRequirement {
  const paymentRequired = parsePaymentRequired(header)
  const reasons: { network: string; asset: string; reason: string }[] = []
  for (const requirement of paymentRequired.accepts) {
    const verdict = judge(chain, requirement, maxAmount)
    if ('reason' in verdict) {
      if (verdict.invalid) throw invalid(verdict.reason, requirement)
      reasons.push({
        network: String(requirement.network),
        asset: String(requirement.asset),
        reason: verdict.reason,
      })
      continue
    }
    return { paymentRequired, requirement, ...verdict }
  }
  const aboveMax = reasons.length > 0 && reasons.every((entry) => entry.reason.startsWith('amount'))
  throw new BaseError(
    'payment_not_payable',
    aboveMax
      ? `The resource asks more than maxAmount ${maxAmount}`
      : `None of the resource's payment requirements can be paid on ${chain.name} (eip155:${chain.chainId})`,
    { details: { chain: chain.name, network: `eip155:${chain.chainId}`, maxAmount, requirements: reasons } },
  )
}

function parsePaymentRequired(header: (name: string) => string | null): PaymentRequired {
  if (!header('PAYMENT-REQUIRED'))
    throw new BaseError('payment_requirements_invalid', 'The 402 answer carries no PAYMENT-REQUIRED header')
  let parsed: PaymentRequired
  try {
    parsed = x402Http.getPaymentRequiredResponse(header)
  } catch (error) {
    throw new BaseError('payment_requirements_invalid', 'The PAYMENT-REQUIRED header is not valid x402', {
      cause: error,
    })
  }
  if (parsed.x402Version !== 2 || !Array.isArray(parsed.accepts) || parsed.accepts.length === 0) {
    throw new BaseError(
      'payment_requirements_invalid',
      'PAYMENT-REQUIRED is not an x402 v2 answer with requirements',
      {
        details: { x402Version: parsed.x402Version },
      },
    )
  }
  return parsed
}

type Verdict = { reason: string; invalid: boolean } | { token: TokenInfo; payee: Address; amount: bigint }

/** Whether one requirement is payable here; a malformed one (for this network) is invalid. */
function judge(chain: ChainHandle, requirement: PaymentRequirements, maxAmount: string | undefined): Verdict {
  if (requirement.network !== `eip155:${chain.chainId}`)
    return { reason: `network ${String(requirement.network)} is not served here`, invalid: false }
  if (requirement.scheme !== 'exact')
    return { reason: `scheme ${requirement.scheme} is not supported`, invalid: false }
  const method = requirement.extra?.assetTransferMethod ?? 'eip3009'
  if (method !== 'eip3009')
    return { reason: `asset transfer method ${String(method)} is not supported`, invalid: false }
  if (typeof requirement.asset !== 'string' || !isAddress(requirement.asset, { strict: false }))
    return { reason: 'asset is not an address', invalid: true }
  const token = chain.contracts.tokens?.find(
    (known) => known.address.toLowerCase() === requirement.asset.toLowerCase(),
  )
  if (!token)
    return { reason: `asset ${requirement.asset} is not a token known on ${chain.name}`, invalid: false }
  if (typeof requirement.payTo !== 'string' || !isAddress(requirement.payTo, { strict: false }))
    return { reason: 'payTo is not an address', invalid: true }
  if (typeof requirement.amount !== 'string' || !/^[1-9][0-9]{0,77}$/.test(requirement.amount))
    return { reason: 'amount is not a positive integer in base units', invalid: true }
  if (!Number.isSafeInteger(requirement.maxTimeoutSeconds) || requirement.maxTimeoutSeconds <= 0)
    return { reason: 'maxTimeoutSeconds is not positive: the requirement is expired', invalid: true }
  if (typeof requirement.extra?.name !== 'string' || typeof requirement.extra?.version !== 'string')
    return { reason: 'extra.name and extra.version (the EIP-712 domain) are missing', invalid: true }
  const amount = BigInt(requirement.amount)
  if (maxAmount !== undefined && amount > parseMax(maxAmount, token.decimals))
    return {
      reason: `amount ${formatUnits(amount, token.decimals)} ${token.symbol} is above maxAmount ${maxAmount}`,
      invalid: false,
    }
  return { token, payee: getAddress(requirement.payTo), amount }
}

/** maxAmount in base units; digits beyond the asset's decimals round it down (never allow more). */
function parseMax(maxAmount: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = maxAmount.split('.')
  return BigInt(whole + fraction.slice(0, decimals).padEnd(decimals, '0'))
}

function invalid(reason: string, requirement: PaymentRequirements): BaseError {
  return new BaseError(
    'payment_requirements_invalid',
    `The resource's payment requirement is malformed: ${reason}`,
    {
      details: { network: String(requirement.network), scheme: requirement.scheme, reason },
    },
  )
}
