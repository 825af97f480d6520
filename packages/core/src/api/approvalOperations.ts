import { approvalContract } from '../approvals/approvalContract.js'
import { checkApprovalFunds } from '../approvals/checkApprovalFunds.js'
import { getApproval, listApprovals } from '../approvals/listApprovals.js'
import { approveApproval, rejectApproval } from '../approvals/resolveApproval.js'
import { bindOperation } from './defineOperation.js'

/** Human-in-the-loop approvals of paused intents. */
export const approvalOperations = [
  bindOperation(approvalContract.listApprovals, listApprovals),
  bindOperation(approvalContract.getApproval, getApproval),
  bindOperation(approvalContract.checkApprovalFunds, checkApprovalFunds),
  bindOperation(approvalContract.approve, approveApproval),
  bindOperation(approvalContract.reject, rejectApproval),
] as const
