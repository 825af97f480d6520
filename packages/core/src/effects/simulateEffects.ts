import { type Address, isAddressEqual, LimitExceededRpcError, pad, BaseError as ViemBaseError } from 'viem'
import { isMethodMissing } from '../chain/isMethodMissing.js'
import { permit2Of } from '../chain/permit2Of.js'
import { isTransportError, toChainError } from '../chain/toChainError.js'
import type { ChainHandle } from '../chain/types.js'
import { effect, nativeAsset } from './effectFactories.js'
import { type EffectLog, effectsOfLogs, type TokenFacts } from './effectsOfLogs.js'
import { mergeEffects } from './mergeEffects.js'
import type { PredictedCall } from './predictEffects.js'
import { simulateV1 } from './simulateV1.js'
import type { Simulation } from './simulation.js'
import { type TokenAsset, tokenOf } from './tokenOf.js'
import { traceCall } from './traceCall.js'
import type { Effect, Effects } from './types.js'

type Method = 'eth_simulateV1' | 'debug_traceCall'

/** The simulation methods each node refused, by client: a refused one is not asked again. */
const refusedBy = new WeakMap<object, Set<Method>>()

/**
 * What `call`, sent by `from`, does to `holder`'s assets, simulated on the node at the pending
 * block: `eth_simulateV1` where the node answers it, else `debug_traceCall` with the `callTracer`
 * (the devnet's way), else `unknown`. The holder's token moves and approvals come from the logs
 * (`effectsOfLogs`), its native moves from the call tree (gas excluded). A revert is `reverted`. A node
 * that does not answer (or limits the rate) throws `chain_unavailable`: never read as no effects.
 * @example await simulateEffects(chain, { from: wallet }, { to: unknownContract, value: 0n, data })
 */
export async function simulateEffects(
  chain: ChainHandle,
  accounts: { from: Address; holder?: Address | undefined },
  call: PredictedCall,
): Promise<Effects> {
  const holder = accounts.holder ?? accounts.from
  const refused = refusedBy.get(chain.client) ?? new Set<Method>()
  refusedBy.set(chain.client, refused)
  const reasons: string[] = []
  for (const [method, simulate] of [
    ['eth_simulateV1', simulateV1],
    ['debug_traceCall', traceCall],
  ] as const) {
    if (refused.has(method)) continue
    let simulation: Simulation
    try {
      simulation = await simulate(chain, accounts.from, call)
    } catch (error) {
      if (isTransportError(error) || error instanceof LimitExceededRpcError) {
        throw toChainError(error, chain.name, { read: true })
      }
      // A node that does not serve the method: ask the next one.
      if (isMethodMissing(error)) refused.add(method)
      reasons.push(`${method}: ${error instanceof ViemBaseError ? error.shortMessage : String(error)}`)
      continue
    }
    if (simulation.status === 'reverted') return { source: 'simulated', ...simulation }
    const tokens = await tokenFactsOf(chain, holder, simulation.logs)
    const effects: Effect[] = [
      ...effectsOfLogs(simulation.logs, {
        holder,
        permit2: permit2Of(chain),
        tokens,
      }),
      ...nativeEffects(chain, holder, simulation),
    ]
    return {
      status: 'known',
      source: 'simulated',
      effects: mergeEffects(effects),
      gasUsed: simulation.gasUsed,
    }
  }
  return {
    status: 'unknown',
    reason: `the node simulates no call (${reasons.length ? reasons.join('; ') : 'eth_simulateV1 and debug_traceCall refused before'})`,
  }
}

function nativeEffects(chain: ChainHandle, holder: Address, simulation: Simulation): Effect[] {
  if (simulation.status !== 'success') return []
  const native = nativeAsset(chain)
  return simulation.transfers.flatMap(({ from, to, value }) => {
    if (isAddressEqual(from, to)) return []
    if (isAddressEqual(from, holder)) return [effect('out', native, value, to)]
    if (isAddressEqual(to, holder)) return [effect('in', native, value, from)]
    return []
  })
}

/** Symbols, decimals and standards of the tokens whose logs name the holder (and Permit2's tokens). */
async function tokenFactsOf(
  chain: ChainHandle,
  holder: Address,
  logs: readonly EffectLog[],
): Promise<TokenFacts> {
  const holderTopic = pad(holder).toLowerCase()
  const addresses = new Set<string>()
  for (const log of logs) {
    if (!log.topics.some((topic) => topic.toLowerCase() === holderTopic)) continue
    addresses.add(log.address.toLowerCase())
    // Permit2's Approval names the token in its second indexed topic.
    const token = log.topics[2]
    if (token && isAddressEqual(log.address, permit2Of(chain))) {
      addresses.add(`0x${token.slice(26)}`.toLowerCase())
    }
  }
  const facts = new Map<string, TokenAsset>()
  for (const address of addresses) {
    const token = await tokenOf(chain, address as Address)
    if (token) facts.set(address, token)
  }
  return facts
}
