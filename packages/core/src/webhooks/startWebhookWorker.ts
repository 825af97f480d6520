import type { AgentWalletContext } from '../context.js'
import { closeWebhookConnections, openWebhookConnections } from './attemptDelivery.js'
import { deliverWebhooks } from './deliverWebhooks.js'

export type WebhookWorker = {
  stop(): Promise<void> /** Runs a pass now (and waits for it). */
  tick(): Promise<void>
}

/**
 * Runs `deliverWebhooks` every `webhooks.intervalMs`, soon after any committed event, and again at
 * once after a pass that used up its budget, off the request path. Passes never overlap; a failed
 * pass is reported and the next one runs anyway.
 * @example const worker = startWebhookWorker(ctx, { onError: console.error })
 */
export function startWebhookWorker(
  ctx: AgentWalletContext,
  hooks: { onError?: (error: unknown) => void } = {},
): WebhookWorker {
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> | undefined
  let again = false
  const connections = openWebhookConnections()

  const run = (): Promise<void> => {
    if (running) {
      again = true
      return running
    }
    clearTimeout(timer)
    running = (async () => {
      do {
        again = false
        try {
          if (await deliverWebhooks(ctx, connections)) again = true
        } catch (error) {
          hooks.onError?.(error)
        }
      } while (again && !stopped)
    })().finally(() => {
      running = undefined
      if (!stopped) timer = setTimeout(run, ctx.options.webhooks.intervalMs)
    })
    return running
  }
  // The commits of one sync of the log reach listeners together: one pass after all of them, not a
  // pass started by the first and another queued by the rest.
  let soon: NodeJS.Immediate | undefined
  const unsubscribe = ctx.commits.add(() => {
    if (stopped || soon) return
    soon = setImmediate(() => {
      soon = undefined
      if (!stopped) void run()
    })
  })
  timer = setTimeout(run, ctx.options.webhooks.intervalMs)
  return {
    tick: run,
    async stop() {
      stopped = true
      unsubscribe()
      clearTimeout(timer)
      clearImmediate(soon)
      await running
      closeWebhookConnections(connections)
    },
  }
}
