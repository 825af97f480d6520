import { chainErrors, defineContracts, everyFamily } from '../schemas/defineContract.js'
import { faucetResultSchema, faucetSchema } from './devnetSchemas.js'

/** Development chains only: the faucet. (contracts: what each operation takes, answers and may fail with) */
export const devnetContract = defineContracts({
  devnetFaucet: {
    summary: 'Add test ETH to an address on a devnet chain (admin; at most 100 ETH per call)',
    description:
      'Add ETH to any address on a devnet chain (chain id 31337 or 1337: the embedded devnet, anvil, hardhat), so a new wallet can send. At most 100 ETH per call; any other chain is unsupported_chain.',
    input: faucetSchema,
    output: faucetResultSchema,
    roles: ['admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'post', path: '/devnet/faucet', status: 200 },
    errors: [...chainErrors],
    tool: false,
    families: everyFamily,
  },
})
