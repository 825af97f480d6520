import {
  DelegationManager,
  EIP7702StatelessDeleGator,
  HybridDeleGator,
  SimpleFactory,
} from '@metamask/delegation-abis'
import { type Abi, type AbiFunction, toFunctionSelector } from 'viem'
import { describe, expect, it } from 'vitest'
import { deleGatorAbi } from './deleGatorAbi.js'
import { delegationManagerAbi } from './delegationManagerAbi.js'
import { simpleFactoryAbi } from './simpleFactoryAbi.js'

const selectors = (abi: Abi) =>
  abi.filter((item): item is AbiFunction => item.type === 'function').map((item) => toFunctionSelector(item))

describe('the Delegation Framework ABIs kept in core', () => {
  it.each([
    ['DelegationManager', delegationManagerAbi, DelegationManager],
    ['HybridDeleGator', deleGatorAbi, HybridDeleGator],
    ['SimpleFactory', simpleFactoryAbi, SimpleFactory],
  ] as const)('%s: every function core calls is one of the published ABI', (_, kept, published) => {
    expect(selectors(published as Abi)).toEqual(expect.arrayContaining(selectors(kept)))
  })

  it('EIP7702StatelessDeleGator has the same entry points core calls, but initialize (it has no storage)', () => {
    const kept = selectors(
      deleGatorAbi.filter((item) => item.type !== 'function' || item.name !== 'initialize'),
    )
    expect(selectors(EIP7702StatelessDeleGator as Abi)).toEqual(expect.arrayContaining(kept))
  })
})
