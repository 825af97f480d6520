import type { Database } from 'better-sqlite3'

/** Rows SQLite samples per index when analyzing: enough for good plans, a few ms per run. */
const analysisLimit = 1000
/** Fewer rows than this need no statistics: any plan is fast. */
const minRows = 1000

/**
 * Keeps the query planner's statistics (`sqlite_stat1`) in step with a growing `records` table.
 * Without them SQLite prefers the primary key over a field index (one collection scanned for one
 * hash); so it re-analyzes, sampled, each time the table may have doubled since the last time.
 * @example const stats = plannerStats(db); stats.wrote(rowsWritten) // after each commit
 */
export const plannerStats = (db: Database) => {
  db.pragma(`analysis_limit = ${analysisLimit}`)
  const analyzed = () => {
    try {
      const stat = db
        .prepare("SELECT stat FROM sqlite_stat1 WHERE idx = 'sqlite_autoindex_records_1'")
        .pluck()
        .get() as string | undefined
      return Number.parseInt(stat ?? '0', 10) || 0
    } catch {
      // sqlite_stat1 appears with the first ANALYZE.
      return 0
    }
  }
  let rows = analyzed()
  let written = 0
  return {
    /** Counts rows written by a commit; analyzes when they may have doubled the table. */
    wrote(count: number) {
      written += count
      if (written < Math.max(minRows, rows)) return
      const before = rows + written
      written = 0
      try {
        db.exec('ANALYZE records')
        correctPrimaryKeyStat(db)
        rows = Math.max(analyzed(), before)
      } catch {
        // Statistics only guide the planner; a commit that has happened must not fail on them.
        rows = before
      }
    },
  }
}

/**
 * A sampled ANALYZE reads the first rows of the primary key, which all belong to one collection, and
 * concludes that `collection = ?` matches a few hundred rows. The planner then scans a whole
 * collection rather than use a field index (a wallet's count among 1M transactions took 1.7 s).
 * The exact figure is cheap to compute: rows per collection, on average, from the covering key.
 */
function correctPrimaryKeyStat(db: Database): void {
  const { total, collections } = db
    .prepare('SELECT count(*) AS total, count(DISTINCT collection) AS collections FROM records')
    .get() as { total: number; collections: number }
  if (total === 0) return
  const perCollection = Math.max(1, Math.ceil(total / Math.max(1, collections)))
  db.prepare("UPDATE sqlite_stat1 SET stat = ? WHERE idx = 'sqlite_autoindex_records_1'").run(
    `${total} ${perCollection} 1`,
  )
  // The planner reads sqlite_stat1 when the schema loads; this reloads it.
  db.exec('ANALYZE sqlite_schema')
}
