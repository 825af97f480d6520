import { type Address, address } from '@solana/kit'
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token'

export const TOKEN_2022_PROGRAM_ADDRESS = address('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb')

/** Token-2022 accounts start with the SPL Token layout, so both programs' balances read the same. */
export const tokenPrograms: readonly Address[] = [TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS]

/** Token accounts are 165 bytes; Token-2022 ones longer (extensions), mints 82 (+ extensions). */
export const tokenAccountSize = 165
export const mintSize = 82
