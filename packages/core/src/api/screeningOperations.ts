import { addScreeningEntries } from '../screening/addScreeningEntries.js'
import { createScreeningList } from '../screening/createScreeningList.js'
import { importScreeningList } from '../screening/importScreeningList.js'
import { listScreeningEntries } from '../screening/listScreeningEntries.js'
import { listScreeningLists } from '../screening/listScreeningLists.js'
import { removeScreeningEntries } from '../screening/removeScreeningEntries.js'
import { screeningContract } from '../screening/screeningContract.js'
import { bindOperation } from './defineOperation.js'

/** Operator screening lists: create, read, list and unlist addresses, import files. */
export const screeningOperations = [
  bindOperation(screeningContract.createScreeningList, createScreeningList),
  bindOperation(screeningContract.listScreeningLists, listScreeningLists),
  bindOperation(screeningContract.listScreeningEntries, listScreeningEntries),
  bindOperation(screeningContract.addScreeningEntries, addScreeningEntries),
  bindOperation(screeningContract.removeScreeningEntries, removeScreeningEntries),
  bindOperation(screeningContract.importScreeningList, importScreeningList),
] as const
