import type { AgentWalletContext } from '../context.js'
import { resumeOperations, stopOperations } from '../operations/backgroundOperations.js'
import { ensRegistration } from './ensRegistration.js'

/**
 * Picks up registrations a previous process left unfinished (the composition root resumes every
 * registered operation at start; this is the ENS part alone).
 * @example await resumeEnsRegistrations(ctx)
 */
export function resumeEnsRegistrations(ctx: AgentWalletContext): Promise<void> {
  return resumeOperations(ctx, [ensRegistration])
}

/** Stops every background operation of this context: registrations, swaps (they stay resumable). */
export function stopEnsRegistrations(ctx: AgentWalletContext): Promise<void> {
  return stopOperations(ctx)
}
