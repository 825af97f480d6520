import type { CompiledMessage } from './decodeWireTransaction.js'

const lamportsPerSignature = 5000n
const computeBudgetProgram = 'ComputeBudget111111111111111111111111111111'
/** Programs whose instructions default to 3,000 compute units (SIMD-0170), not 200,000. */
const builtins = new Set([
  '11111111111111111111111111111111',
  computeBudgetProgram,
  'Vote111111111111111111111111111111111111111',
  'Stake11111111111111111111111111111111111111',
  'Config1111111111111111111111111111111111111',
  'AddressLookupTab1e1111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoader1111111111111111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
  'Ed25519SigVerify111111111111111111111111111',
  'KeccakSecp256k11111111111111111111111111111',
  'Secp256r1SigVerify1111111111111111111111111',
])
const maxComputeUnits = 1_400_000n

/** The compute-unit price (micro-lamports) a message sets with `SetComputeUnitPrice`, 0 if none. */
export function computeUnitPrice(message: CompiledMessage): bigint {
  return readComputeBudget(message).price
}

/**
 * The fee a message pays, as the runtime charges it: 5,000 lamports a signature plus the priority fee
 * (compute-unit price × compute-unit limit, rounded up). Checked against LiteSVM's debit in the tests.
 */
export function computeFee(message: CompiledMessage): bigint {
  const { price, limit } = readComputeBudget(message)
  const priority = (price * limit + 999_999n) / 1_000_000n
  return lamportsPerSignature * BigInt(message.header.numSignerAccounts) + priority
}

function readComputeBudget(message: CompiledMessage) {
  let price = 0n
  let limit: bigint | undefined
  let defaultLimit = 0n
  for (const instruction of message.instructions) {
    const program = message.staticAccounts[instruction.programAddressIndex] ?? ''
    defaultLimit += builtins.has(program) ? 3_000n : 200_000n
    if (program !== computeBudgetProgram || !instruction.data) continue
    const data = new DataView(
      instruction.data.buffer,
      instruction.data.byteOffset,
      instruction.data.byteLength,
    )
    if (instruction.data[0] === 2 && data.byteLength >= 5) limit = BigInt(data.getUint32(1, true))
    if (instruction.data[0] === 3 && data.byteLength >= 9) price = data.getBigUint64(1, true)
  }
  const units = limit ?? defaultLimit
  return { price, limit: units > maxComputeUnits ? maxComputeUnits : units }
}
