import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { compileContracts, deployedContracts } from '../scripts/compile.js'

describe('contracts/*.sol', () => {
  it('recompile to exactly the committed artifact (run `pnpm compile` after editing a source)', () => {
    const committed = JSON.parse(
      readFileSync(new URL('../artifacts/devnet-contracts.json', import.meta.url), 'utf8'),
    )
    const compiled = compileContracts()
    expect(Object.keys(compiled)).toEqual([...deployedContracts])
    for (const name of deployedContracts) {
      expect(compiled[name]!.bytecode, name).toBe(committed.contracts[name].bytecode)
      expect(compiled[name]!.abi, name).toEqual(committed.contracts[name].abi)
    }
  })
})
