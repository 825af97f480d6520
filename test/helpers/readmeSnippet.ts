import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url))

/**
 * The README's library snippet, verbatim: the first ```ts block under "## The library". It is plain
 * JavaScript (no type syntax), so it runs as `.mjs` too.
 * @example writeFileSync(join(dir, 'snippet.mjs'), readmeLibrarySnippet())
 */
export function readmeLibrarySnippet(): string {
  const readme = readFileSync(`${repoRoot}/README.md`, 'utf8')
  const section = readme.slice(readme.indexOf('\n## The library'))
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1]
  if (!block || !section.trim()) throw new Error('README.md has no ```ts block under "## The library"')
  return block
}

/** What a successful run of the snippet prints: the event line, then the address and its status. */
export const snippetOutput = /^confirmed 0x[0-9a-f]{64}\n0x[0-9a-fA-F]{40} confirmed\n$/
