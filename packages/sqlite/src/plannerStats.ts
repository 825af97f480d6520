import type { Database } from 'better-sqlite3'

/** Rows SQLite samples per index when analyzing: enough for good plans, a few ms per run. */
const analysisLimit = 1000
/** Fewer rows than this need no statistics: any plan is fast. */
const minRows = 1000

/**
 * Keeps the query planner's statistics (`sqlite_stat1`) in step with growing collection tables.
 * Without them SQLite may prefer the primary key over a field index (a collection scanned for one
 * hash); so it re-analyzes, sampled, each time the rows may have doubled since the last time.
 * @example const stats = plannerStats(db); stats.wrote(rowsWritten) // after each commit
 */
export const plannerStats = (db: Database) => {
  db.pragma(`analysis_limit = ${analysisLimit}`)
  // The rows the last ANALYZE saw: the first figure of each table's statistics, summed.
  const analyzed = () => {
    try {
      const rows = db
        .prepare('SELECT max(CAST(stat AS INTEGER)) FROM sqlite_stat1 GROUP BY tbl')
        .pluck()
        .all() as number[]
      return rows.reduce((sum, count) => sum + count, 0)
    } catch {
      // sqlite_stat1 appears with the first ANALYZE.
      return 0
    }
  }
  let rows = analyzed()
  let written = 0
  return {
    /** Counts rows written by a commit; analyzes when they may have doubled the tables. */
    wrote(count: number) {
      written += count
      if (written < Math.max(minRows, rows)) return
      const before = rows + written
      written = 0
      try {
        db.exec('ANALYZE')
        rows = Math.max(analyzed(), before)
      } catch {
        // Statistics only guide the planner; a commit that has happened must not fail on them.
        rows = before
      }
    },
  }
}
