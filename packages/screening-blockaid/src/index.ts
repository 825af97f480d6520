export { type BlockaidScreeningOptions, blockaidScreening } from './blockaidScreening.js'
export { reasonsOf, verdictOf } from './blockaidVerdict.js'
