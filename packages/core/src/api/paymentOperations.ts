import { cancelPayment } from '../payments/cancelPayment.js'
import { payAndFetch } from '../payments/payAndFetch.js'
import { paymentContract } from '../payments/paymentContract.js'
import { rateCounterparty } from '../payments/rateCounterparty.js'
import { bindOperation } from './defineOperation.js'

/** Payments for what agents use over HTTP: x402. */
export const paymentOperations = [
  bindOperation(paymentContract.payAndFetch, payAndFetch),
  bindOperation(paymentContract.rateCounterparty, rateCounterparty),
  bindOperation(paymentContract.cancelPayment, cancelPayment),
] as const
