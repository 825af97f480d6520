import type { Database, Statement } from 'better-sqlite3'

/**
 * Prepares each distinct SQL text once. Queries inline collection and field names, so the set of
 * texts is bounded by the code's query shapes; the cap only guards against an unbounded caller.
 * @example const prepare = statementCache(db); prepare('SELECT 1').get()
 */
export const statementCache = (db: Database, max = 500) => {
  const statements = new Map<string, Statement>()
  return (sql: string): Statement => {
    let statement = statements.get(sql)
    if (!statement) {
      if (statements.size >= max) statements.clear()
      statement = db.prepare(sql)
      statements.set(sql, statement)
    }
    return statement
  }
}
