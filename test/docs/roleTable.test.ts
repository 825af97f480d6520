import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { roleTableFile, withRoleTable } from '../../scripts/roleTable.js'

it('docs/security.md states the role table of the operation table as it is (pnpm docs:roles)', () => {
  const document = readFileSync(roleTableFile, 'utf8')
  expect(document).toBe(withRoleTable(document))
})
