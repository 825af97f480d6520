import type { z } from 'zod'
import type { AgentWalletContext } from '../context.js'
import type { Principal } from '../principals/types.js'
import { findScreeningList } from './findScreeningList.js'
import { parseScreeningFile } from './parseScreeningFile.js'
import { type ScreenedAddress, screenedAddress } from './screenedAddress.js'
import { screeningListView } from './screeningListView.js'
import type { importScreeningAnswerSchema, importScreeningListSchema } from './screeningSchemas.js'
import { writeScreeningEntries } from './writeScreeningEntries.js'

const shownSkips = 100

/**
 * Imports a file's addresses into a list: those in the list family's form are listed with the file's
 * reason (or the import's); the rest — another currency's address (an SDN bitcoin address on an EVM
 * import), a malformed one, a CSV row with no reason and no default — are skipped with why.
 * @example await importScreeningList(ctx, admin, { list, family: 'evm', format: 'ofac_sdn_csv', content })
 */
export async function importScreeningList(
  ctx: AgentWalletContext,
  principal: Principal,
  input: z.output<typeof importScreeningListSchema>,
): Promise<z.output<typeof importScreeningAnswerSchema>> {
  const list = await findScreeningList(ctx, principal, input.list, { change: true })
  const entries: { address: ScreenedAddress; reason: string }[] = []
  const skipped: { line: number; value: string; reason: string }[] = []
  for (const row of parseScreeningFile(input.format, input.content)) {
    const checked = screenedAddress(input.family, row.address)
    const reason = row.reason ?? input.reason
    if (!checked.ok)
      skipped.push({ line: row.line, value: row.address.slice(0, 128), reason: checked.reason })
    else if (!reason) skipped.push({ line: row.line, value: row.address, reason: 'no reason given' })
    else entries.push({ address: checked, reason })
  }
  const added =
    entries.length === 0
      ? 0
      : await writeScreeningEntries(ctx, principal, list, {
          change: 'imported',
          entries,
          format: input.format,
        })
  return {
    list: await screeningListView(ctx, list),
    added,
    skipped: skipped.slice(0, shownSkips),
    skippedCount: skipped.length,
  }
}
