import type { z } from 'zod'
import { appendAudit } from '../audit/appendAudit.js'
import type { AgentWalletContext } from '../context.js'
import { ForbiddenError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import { type ScreeningListView, screeningListView } from './screeningListView.js'
import { type ScreeningListRecord, screeningListsCollection } from './screeningRecords.js'
import type { createScreeningListSchema } from './screeningSchemas.js'

/**
 * Creates a screening list of the caller's tenant, or (`shared`, the root admin only) one that
 * screens every tenant's sends. Recorded in the audit trail.
 * @example const { list } = await createScreeningList(ctx, admin, { name: 'drainers', shared: false, verdict: 'block' })
 */
export async function createScreeningList(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof createScreeningListSchema>,
): Promise<{ list: ScreeningListView }> {
  if (input.shared && !principal.root)
    throw new ForbiddenError('Only the operator’s root admin creates a shared screening list', {
      details: { reason: 'shared_list' },
    })
  const now = ctx.now().toISOString()
  const list: ScreeningListRecord = {
    id: ctx.newId('scl'),
    tenantId: principal.tenantId,
    name: input.name,
    ...(input.description ? { description: input.description } : {}),
    shared: input.shared,
    verdict: input.verdict,
    createdAt: now,
    createdBy: principal.id,
    updatedAt: now,
  }
  await ctx.storage.transaction([], async (tx) => {
    await tx.insert(screeningListsCollection, list)
    appendAudit(ctx, tx, principal.tenantId, {
      kind: 'screening.list_changed',
      subjects: { apiKeyId: principal.id },
      payload: {
        list: list.id,
        name: list.name,
        shared: list.shared,
        verdict: list.verdict,
        change: 'created',
      },
    })
  })
  return { list: await screeningListView(ctx, list) }
}
