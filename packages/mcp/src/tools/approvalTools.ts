import { listApprovalsSchema } from '@agentwallet/core'
import { z } from 'zod'
import type { AgentWalletBackend } from '../backend/agentWalletBackend.js'
import { type AgentWalletTool, defineTool } from './defineTool.js'

/**
 * Reading approvals this agent asked for; approving is for humans and has no tool.
 * @example const [getApproval, listApprovals] = approvalTools(backend)
 */
export function approvalTools(backend: AgentWalletBackend): AgentWalletTool[] {
  return [
    defineTool({
      name: 'get_approval',
      title: 'Approval status',
      description:
        'Status of an approval this agent asked for (pending, approved, rejected, expired), with its transaction id; while pending, how a human approves it. Once approved, read the transaction with get_transaction.',
      inputSchema: z.strictObject({
        approvalId: z.string().min(1).max(100).describe('The approval id a paused send returned'),
      }),
      readOnly: true,
      run: ({ approvalId }) => backend.getApproval(approvalId),
    }),
    defineTool({
      name: 'list_approvals',
      title: 'List approvals',
      description: 'Approvals this agent asked for, newest first; filter by status.',
      inputSchema: listApprovalsSchema,
      readOnly: true,
      run: (parameters) => backend.listApprovals(parameters),
    }),
  ]
}
