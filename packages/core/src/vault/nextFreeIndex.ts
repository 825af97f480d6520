/**
 * The lowest index at or above `from` that `isUsed` reports free, assuming used indexes form one
 * contiguous run from 0 (as sequential allocation makes them). Galloping + binary search keeps a
 * restarted vault at O(log n) probes instead of n.
 * @example await nextFreeIndex(async (i) => i < 5, 0) // 5
 */
export const nextFreeIndex = async (
  isUsed: (index: number) => Promise<boolean>,
  from: number,
): Promise<number> => {
  if (!(await isUsed(from))) return from
  let low = from
  let step = 1
  let high = low + step
  while (await isUsed(high)) {
    low = high
    step *= 2
    high = low + step
  }
  // Invariant: low is used, high is free.
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2)
    if (await isUsed(middle)) low = middle
    else high = middle
  }
  return high
}
