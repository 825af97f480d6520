import { type Address, namehash, parseEther, toHex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createDevnet,
  type Devnet,
  ensEthRegistrarControllerAbi,
  ensPublicResolverAbi,
  ensRegistryAbi,
  ensReverseRegistrarAbi,
} from '../src/index.js'
import { clientsFor } from './clients.js'

const year = 365n * 24n * 60n * 60n

describe('ENS', () => {
  let devnet: Devnet
  beforeAll(async () => {
    // Older than the default (1 s), so the early reveal below lands before the commitment is old enough.
    devnet = await createDevnet({ ensMinCommitmentAge: 10 })
  })
  afterAll(() => devnet.close())

  it('registers a .eth name by commit/reveal, resolves it through registry → resolver, and sets the reverse name', async () => {
    const { publicClient, wallet } = clientsFor(devnet)
    const { ens } = devnet.addressBook
    const owner = wallet(1)
    const ownerAddress = owner.account.address
    const label = 'agent-alpha'
    const secret = toHex(crypto.getRandomValues(new Uint8Array(32)))
    const controller = { address: ens.controller, abi: ensEthRegistrarControllerAbi } as const

    expect(await publicClient.readContract({ ...controller, functionName: 'available', args: [label] })).toBe(
      true,
    )
    const commitment = await publicClient.readContract({
      ...controller,
      functionName: 'makeCommitmentWithConfig',
      args: [label, ownerAddress, secret, ens.publicResolver, ownerAddress],
    })
    await owner.writeContract({ ...controller, functionName: 'commit', args: [commitment] })
    const price = await publicClient.readContract({
      ...controller,
      functionName: 'rentPrice',
      args: [label, year],
    })
    // $5/year at 3000 USD/ETH.
    expect(price).toBeGreaterThan(parseEther('0.0016'))
    expect(price).toBeLessThan(parseEther('0.0017'))
    const register = () =>
      owner.writeContract({
        ...controller,
        functionName: 'registerWithConfig',
        args: [label, ownerAddress, year, secret, ens.publicResolver, ownerAddress],
        value: (price * 11n) / 10n,
        gas: 500_000n,
      })

    // The reveal is refused until the commitment is old enough.
    const early = await register()
    expect((await publicClient.getTransactionReceipt({ hash: early })).status).toBe('reverted')
    const minAge = await publicClient.readContract({ ...controller, functionName: 'minCommitmentAge' })
    await devnet.increaseTime(Number(minAge))
    const hash = await register()
    expect((await publicClient.getTransactionReceipt({ hash })).status).toBe('success')

    const node = namehash(`${label}.eth`)
    const resolver = await publicClient.readContract({
      address: ens.registry,
      abi: ensRegistryAbi,
      functionName: 'resolver',
      args: [node],
    })
    expect(resolver).toBe(ens.publicResolver)
    const resolved = await publicClient.readContract({
      address: resolver,
      abi: ensPublicResolverAbi,
      functionName: 'addr',
      args: [node],
    })
    expect(resolved).toBe(ownerAddress)
    expect(
      await publicClient.readContract({
        address: ens.registry,
        abi: ensRegistryAbi,
        functionName: 'owner',
        args: [node],
      }),
    ).toBe(ownerAddress)
    expect(await publicClient.readContract({ ...controller, functionName: 'available', args: [label] })).toBe(
      false,
    )

    await owner.writeContract({
      address: ens.reverseRegistrar,
      abi: ensReverseRegistrarAbi,
      functionName: 'setName',
      args: [`${label}.eth`],
    })
    const reverseNode = namehash(`${ownerAddress.slice(2).toLowerCase()}.addr.reverse`)
    const reverseResolver: Address = await publicClient.readContract({
      address: ens.registry,
      abi: ensRegistryAbi,
      functionName: 'resolver',
      args: [reverseNode],
    })
    const name = await publicClient.readContract({
      address: reverseResolver,
      abi: ensPublicResolverAbi,
      functionName: 'name',
      args: [reverseNode],
    })
    expect(name).toBe(`${label}.eth`)
  })
})
