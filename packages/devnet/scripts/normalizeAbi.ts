type AbiItem = Record<string, unknown> & { type?: string; inputs?: AbiParam[]; outputs?: AbiParam[] }
type AbiParam = Record<string, unknown> & { components?: AbiParam[] }

const keepParam = ['name', 'type', 'indexed', 'components']

function param(p: AbiParam): AbiParam {
  const out: AbiParam = {}
  for (const key of keepParam)
    if (p[key] !== undefined) out[key] = key === 'components' ? p.components?.map(param) : p[key]
  return out
}

/**
 * Strips compiler-specific fields (truffle's `constant`/`payable`, `internalType`, `signature`) so the
 * artifacts are small and every ABI has the shape viem types expect, including `stateMutability`.
 */
export function normalizeAbi(abi: AbiItem[]): AbiItem[] {
  return abi.map((item) => {
    const out: AbiItem = { type: item.type ?? 'function' }
    if (item.name !== undefined) out.name = item.name
    if (item.inputs) out.inputs = item.inputs.map(param)
    if (item.outputs) out.outputs = item.outputs.map(param)
    if (item.anonymous !== undefined) out.anonymous = item.anonymous
    if (out.type !== 'event' && out.type !== 'error') {
      out.stateMutability =
        item.stateMutability ?? (item.payable ? 'payable' : item.constant ? 'view' : 'nonpayable')
    }
    return out
  })
}
