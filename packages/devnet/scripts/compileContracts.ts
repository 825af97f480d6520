/**
 * Compiles contracts/*.sol and writes artifacts/devnet-contracts.json (+ the generated ABI modules),
 * so that a devnet start needs no compiler. test/compile.test.ts checks the artifact is reproducible.
 * Run: pnpm --filter @agentwallet/devnet compile
 */
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { compileContracts, compilerVersion } from './compile.js'
import { writeAbiModules } from './writeAbiModules.js'

const out = fileURLToPath(new URL('../artifacts/devnet-contracts.json', import.meta.url))
const contracts = compileContracts()
writeFileSync(
  out,
  `${JSON.stringify({ source: `contracts/*.sol, solc ${compilerVersion}`, contracts }, null, 1)}\n`,
)
console.log(`wrote ${out}`)
writeAbiModules()
