import * as z from 'zod/mini'
import { defineContracts } from '../schemas/defineContract.js'
import {
  addScreeningEntriesSchema,
  createScreeningListSchema,
  importScreeningAnswerSchema,
  importScreeningListSchema,
  listScreeningEntriesSchema,
  removeScreeningEntriesSchema,
  screeningEntrySchema,
  screeningListSchema,
} from './screeningSchemas.js'

const count = z.number().check(z.int())

/** Operator screening lists: who is never paid or granted to (admins change them; approvers read them). (contracts: what each operation takes, answers and may fail with) */
export const screeningContract = defineContracts({
  createScreeningList: {
    summary:
      'Create a screening list of the tenant (or, root admin only, a shared one every tenant is screened by)',
    description:
      'Create an operator list of counterparties that `screen_counterparties` rules refuse (`verdict: block`) or flag (`warn`) as recipients, spenders, x402 payees and Safe targets. `shared: true` (the root admin only) screens every tenant’s sends.',
    input: createScreeningListSchema,
    output: z.object({ list: screeningListSchema }),
    roles: ['admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'post', path: '/screening/lists', status: 201 },
    errors: [],
    tool: false,
  },
  listScreeningLists: {
    summary: 'The screening lists that screen this tenant’s sends: its own and the shared ones',
    description: 'The tenant’s screening lists and the shared ones, with how many addresses each holds.',
    input: z.strictObject({}),
    output: z.object({ count, lists: z.array(screeningListSchema) }),
    roles: ['approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/screening/lists', status: 200 },
    errors: [],
    tool: false,
  },
  listScreeningEntries: {
    summary: 'Addresses on a screening list, newest first, with the reason each was listed',
    description: 'The addresses on one list, newest first, with who listed each and why.',
    input: listScreeningEntriesSchema,
    output: z.object({ count, entries: z.array(screeningEntrySchema) }),
    roles: ['approver', 'admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'get', path: '/screening/lists/:list/entries', status: 200 },
    errors: ['not_found'],
    tool: false,
  },
  addScreeningEntries: {
    summary: 'List addresses, each with a reason (an address listed again takes the new reason)',
    description:
      'Add addresses to a list, each with the reason it is listed; each is checked in its chain family’s form (EVM: 0x + 40 hex, a mixed-case one with a valid EIP-55 checksum). Takes effect on the next send.',
    input: addScreeningEntriesSchema,
    output: z.object({ list: screeningListSchema, added: count }),
    roles: ['admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'post', path: '/screening/lists/:list/entries', status: 200 },
    errors: ['not_found'],
    tool: false,
  },
  removeScreeningEntries: {
    summary: 'Take addresses off a list, with the reason (recorded in the audit trail)',
    description: 'Remove addresses from a list; the reason is recorded in the audit trail.',
    input: removeScreeningEntriesSchema,
    output: z.object({ list: screeningListSchema, removed: count }),
    roles: ['admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'post', path: '/screening/lists/:list/entries/remove', status: 200 },
    errors: ['not_found'],
    tool: false,
  },
  importScreeningList: {
    summary: 'Import addresses from a file: CSV (address,reason) or OFAC SDN’s digital-currency addresses',
    description:
      'Import a file’s addresses into a list: `csv` (`address,reason` rows), `ofac_sdn_csv` (OFAC’s sdn.csv: the “Digital Currency Address - XBT/ETH/…” ids of its remarks) or `ofac_sdn_xml` (OFAC’s sdn.xml ids of that type). Addresses not of the list’s family (a bitcoin address on an EVM import) or malformed are skipped with the reason, never guessed.',
    input: importScreeningListSchema,
    output: importScreeningAnswerSchema,
    roles: ['admin'],
    idempotent: false,
    movesValue: false,
    http: { method: 'post', path: '/screening/lists/:list/import', status: 200 },
    errors: ['not_found'],
    tool: false,
  },
})
