import type { AgentWalletContext } from '../context.js'
import { resumeOperations, runOperation, stopOperations } from '../operations/backgroundOperations.js'
import { advanceEnsRegistration } from './advanceEnsRegistration.js'
import { activeEnsStatuses } from './types.js'

/**
 * Picks up registrations a previous process left unfinished (called by the composition root's reconcile).
 * @example await resumeEnsRegistrations(ctx)
 */
export function resumeEnsRegistrations(ctx: AgentWalletContext): Promise<void> {
  return resumeOperations(ctx, 'ens_names', activeEnsStatuses, (id) =>
    runOperation(ctx, id, (signal) => advanceEnsRegistration(ctx, id, signal)),
  )
}

/** Stops every background operation of this context: registrations, swaps (they stay resumable). */
export function stopEnsRegistrations(ctx: AgentWalletContext): Promise<void> {
  return stopOperations(ctx)
}
