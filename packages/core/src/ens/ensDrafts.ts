import { encodeFunctionData } from 'viem'
import { ensControllerAbi, ensReverseRegistrarAbi } from '../chain/ensAbis.js'
import type { ChainHandle } from '../chain/types.js'
import type { IntentDraft } from '../intents/types.js'
import { requireEnsContract } from './ensContractsOf.js'
import type { EnsRegistrationRecord } from './types.js'

/** The controller refunds what exceeds the rent; the buffer absorbs a price move between quote and reveal. */
export function valueWithBuffer(rent: bigint): bigint {
  return (rent * 110n) / 100n
}

function native(chain: ChainHandle): IntentDraft['asset'] {
  return { address: 'native', symbol: chain.nativeSymbol, decimals: chain.nativeDecimals }
}

/** commit(commitment): moves no value. */
export function commitDraft(chain: ChainHandle, record: EnsRegistrationRecord): IntentDraft {
  return {
    kind: 'ens',
    chain: chain.name,
    to: record.controller,
    asset: native(chain),
    amount: 0n,
    call: {
      to: record.controller,
      value: 0n,
      data: encodeFunctionData({ abi: ensControllerAbi, functionName: 'commit', args: [record.commitment] }),
    },
    meta: { protocol: 'ens', step: 'commit', name: record.name, registrationId: record.id },
  }
}

/** registerWithConfig with the public resolver and the address record: the policy sees the rent as the amount. */
export function registerDraft(
  chain: ChainHandle,
  record: Pick<
    EnsRegistrationRecord,
    'controller' | 'label' | 'owner' | 'durationSeconds' | 'secret' | 'resolver' | 'name'
  > & {
    id?: string | undefined
  },
  rent: bigint,
): IntentDraft {
  return {
    kind: 'ens',
    chain: chain.name,
    to: record.controller,
    asset: native(chain),
    amount: rent,
    call: {
      to: record.controller,
      value: valueWithBuffer(rent),
      data: encodeFunctionData({
        abi: ensControllerAbi,
        functionName: 'registerWithConfig',
        args: [
          record.label,
          record.owner,
          BigInt(record.durationSeconds),
          record.secret,
          record.resolver,
          record.owner,
        ],
      }),
    },
    meta: { protocol: 'ens', step: 'register', name: record.name, registrationId: record.id },
  }
}

/** ReverseRegistrar.setName(name) from the owner: its primary name. */
export function reverseDraft(chain: ChainHandle, record: EnsRegistrationRecord): IntentDraft {
  const reverseRegistrar = requireEnsContract(chain, 'reverseRegistrar')
  return {
    kind: 'ens',
    chain: chain.name,
    to: reverseRegistrar,
    asset: native(chain),
    amount: 0n,
    call: {
      to: reverseRegistrar,
      value: 0n,
      data: encodeFunctionData({ abi: ensReverseRegistrarAbi, functionName: 'setName', args: [record.name] }),
    },
    meta: { protocol: 'ens', step: 'reverse', name: record.name, registrationId: record.id },
  }
}
