import type { AgentWallet } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import { expect, it } from 'vitest'
import { fundedWallet, useDevnetAgentWallet } from '../helpers/devnetAgentWallet.js'

let devnet: Devnet
let aw: AgentWallet

// The devnet as `agentwallet serve` starts it (no options: its default commitment age), and the
// tracker at its default pace rather than the tests' fast one.
useDevnetAgentWallet((started) => ({ devnet, aw } = started), {
  trackerIntervalMs: 500,
  rebroadcastAfterMs: 30_000,
})

it('registers a name on a default devnet without waiting out a long commitment age', {
  timeout: 60_000,
}, async () => {
  const wallet = await fundedWallet(aw, devnet, '1', 'quick-namer')
  const name = `quick-${Date.now().toString(36)}.eth`
  expect((await aw.checkEnsName({ name })).minCommitmentAge).toBeLessThanOrEqual(1)

  const requested = performance.now()
  const started = await aw.registerEnsName({ name, wallet: wallet.address })
  const settled = () => aw.getEnsRegistration({ registrationId: started.registration.id })
  await expect
    .poll(async () => (await settled()).registration.status, {
      timeout: 30_000,
      interval: 50,
      message: `registration of ${name} to leave committing/committed/registering`,
    })
    .toMatch(/^(registered|failed)$/)
  const seconds = (performance.now() - requested) / 1000
  console.info(`ENS registration on a default devnet: ${seconds.toFixed(2)} s from the request`)
  expect((await settled()).registration).toMatchObject({ status: 'registered', name })
  expect(await aw.resolveEnsName({ name })).toMatchObject({ address: wallet.address })
})
