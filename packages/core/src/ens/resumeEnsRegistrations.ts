import type { AgentWalletContext } from '../context.js'
import { advanceEnsRegistration } from './advanceEnsRegistration.js'
import { resumeOperations, stopOperations } from './ensOperations.js'

/**
 * Picks up registrations a previous process left unfinished (called by the composition root's reconcile).
 * @example await resumeEnsRegistrations(ctx)
 */
export function resumeEnsRegistrations(ctx: AgentWalletContext): Promise<void> {
  return resumeOperations(ctx, advanceEnsRegistration)
}

/** Stops this context's background registrations (they stay resumable). */
export function stopEnsRegistrations(ctx: AgentWalletContext): Promise<void> {
  return stopOperations(ctx)
}
