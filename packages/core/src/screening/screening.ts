import type { ScreeningCounts } from './screeningCounts.js'
import type { ScreeningSource } from './types.js'

/** The screening sources of a deployment (the operator lists first) and their counters. */
export type Screening = { sources: readonly ScreeningSource[]; counts: ScreeningCounts }
