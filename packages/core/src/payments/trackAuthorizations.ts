import { isTransportError } from '../chain/toChainError.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { releaseUnsigned } from './releaseUnsigned.js'
import { resolveAuthorization } from './resolveAuthorization.js'
import {
  answerWaitMs,
  signedAuthorizationOf,
  unsignedPaymentOf,
  unsignedPaymentWaitMs,
} from './signedAuthorization.js'

/**
 * One tracker pass over the x402 payments whose signed authorization is still open (`queued` with
 * `meta.authorization`): each is asked of the chain (`resolveAuthorization`) and settled, released
 * at `validBefore`, or released once cancelled. A payment accepted and never signed (its request
 * stopped before signing: a process that died) is released once it has waited `unsignedPaymentWaitMs`
 * (`failed`, `payment_abandoned`); one younger costs nothing.
 * `chains` limits the pass to those chain names (the ones this process leads).
 * @example await trackAuthorizations(ctx, { chains: ['base'] })
 */
export async function trackAuthorizations(
  ctx: AgentWalletContext,
  options: { chains?: readonly string[] | undefined } = {},
): Promise<void> {
  const queued = await ctx.storage.query('transactions', {
    where: { status: 'queued', kind: 'x402_payment', ...(options.chains ? { chain: options.chains } : {}) },
    orderBy: 'createdAt',
    limit: 1000,
  })
  const inFlightSince = ctx.now().getTime() - answerWaitMs
  const open = queued.filter((record) => signedAuthorizationOf(record) !== undefined)
  const abandonedSince = ctx.now().getTime() - unsignedPaymentWaitMs
  const abandoned = queued.filter(
    (record) => unsignedPaymentOf(record) && Date.parse(record.updatedAt) <= abandonedSince,
  )
  const results = await Promise.allSettled([
    ...open.map(async (record) => {
      const answered = (await ctx.storage.get('x402_requests', record.id))?.outcome
      if (!answered && Date.parse(record.updatedAt) > inFlightSince) return
      await resolveAuthorization(ctx, record.id)
    }),
    ...abandoned.map((record) =>
      releaseUnsigned(ctx, record.id, abandonedError(), { idleMs: unsignedPaymentWaitMs }),
    ),
  ])
  // One chain read failing leaves its payment open for the next pass, not the others; a node that
  // did not answer is no news (unknown is not failed), anything else is reported.
  const failed = results.find((result) => result.status === 'rejected' && !isTransportError(result.reason))
  if (failed?.status === 'rejected') throw failed.reason
}

function abandonedError(): BaseError {
  return new BaseError(
    'payment_abandoned',
    'The payment was accepted but its request stopped before signing it: released, nothing was paid',
    { details: { waitedMs: unsignedPaymentWaitMs } },
  )
}
