// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";

/// @title ERC-8004 Reputation Registry (devnet build)
/// @notice Clients leave scored feedback (0-100) about an agent; owners and their operators cannot
///         rate their own agent. Feedback is 1-indexed per (agent, client) and can be revoked.
contract ReputationRegistry {
    struct Feedback {
        uint8 score;
        string tag1;
        string tag2;
        bool isRevoked;
    }

    event NewFeedback(
        uint256 indexed agentId,
        address indexed clientAddress,
        uint8 score,
        string indexed indexedTag1,
        string tag1,
        string tag2,
        string feedbackUri,
        bytes32 feedbackHash
    );
    event FeedbackRevoked(uint256 indexed agentId, address indexed clientAddress, uint64 indexed feedbackIndex);
    event ResponseAppended(
        uint256 indexed agentId,
        address indexed clientAddress,
        uint64 feedbackIndex,
        address indexed responder,
        string responseUri,
        bytes32 responseHash
    );

    error ScoreTooHigh(uint8 score);
    error SelfFeedback();
    error UnknownFeedback(uint64 feedbackIndex);
    error AlreadyRevoked(uint64 feedbackIndex);

    IERC721 private immutable _identity;
    mapping(uint256 agentId => mapping(address client => mapping(uint64 index => Feedback))) private _feedback;
    mapping(uint256 agentId => mapping(address client => uint64)) private _lastIndex;
    mapping(uint256 agentId => address[]) private _clients;

    constructor(address identityRegistry) {
        _identity = IERC721(identityRegistry);
    }

    function getIdentityRegistry() external view returns (address) {
        return address(_identity);
    }

    function giveFeedback(
        uint256 agentId,
        uint8 score,
        string calldata tag1,
        string calldata tag2,
        string calldata feedbackUri,
        bytes32 feedbackHash
    ) external {
        if (score > 100) revert ScoreTooHigh(score);
        address owner = _identity.ownerOf(agentId); // reverts for unknown agents
        if (
            msg.sender == owner || _identity.isApprovedForAll(owner, msg.sender)
                || _identity.getApproved(agentId) == msg.sender
        ) revert SelfFeedback();
        uint64 index = ++_lastIndex[agentId][msg.sender];
        if (index == 1) _clients[agentId].push(msg.sender);
        _feedback[agentId][msg.sender][index] = Feedback(score, tag1, tag2, false);
        emit NewFeedback(agentId, msg.sender, score, tag1, tag1, tag2, feedbackUri, feedbackHash);
    }

    function revokeFeedback(uint256 agentId, uint64 feedbackIndex) external {
        Feedback storage f = _existing(agentId, msg.sender, feedbackIndex);
        if (f.isRevoked) revert AlreadyRevoked(feedbackIndex);
        f.isRevoked = true;
        emit FeedbackRevoked(agentId, msg.sender, feedbackIndex);
    }

    function appendResponse(
        uint256 agentId,
        address clientAddress,
        uint64 feedbackIndex,
        string calldata responseUri,
        bytes32 responseHash
    ) external {
        _existing(agentId, clientAddress, feedbackIndex);
        emit ResponseAppended(agentId, clientAddress, feedbackIndex, msg.sender, responseUri, responseHash);
    }

    function readFeedback(uint256 agentId, address clientAddress, uint64 feedbackIndex)
        external
        view
        returns (uint8 score, string memory tag1, string memory tag2, bool isRevoked)
    {
        Feedback storage f = _existing(agentId, clientAddress, feedbackIndex);
        return (f.score, f.tag1, f.tag2, f.isRevoked);
    }

    function getLastIndex(uint256 agentId, address clientAddress) external view returns (uint64) {
        return _lastIndex[agentId][clientAddress];
    }

    function getClients(uint256 agentId) external view returns (address[] memory) {
        return _clients[agentId];
    }

    /// Average score of the non-revoked feedback, optionally filtered by clients and tags.
    function getSummary(uint256 agentId, address[] calldata clientAddresses, string calldata tag1, string calldata tag2)
        external
        view
        returns (uint64 count, uint8 averageScore)
    {
        address[] memory clients = clientAddresses;
        if (clients.length == 0) clients = _clients[agentId];
        uint256 total;
        for (uint256 i; i < clients.length; i++) {
            (uint256 clientTotal, uint64 clientCount) = _sumClient(agentId, clients[i], tag1, tag2);
            total += clientTotal;
            count += clientCount;
        }
        averageScore = count == 0 ? 0 : uint8(total / count);
    }

    function _sumClient(uint256 agentId, address client, string calldata tag1, string calldata tag2)
        private
        view
        returns (uint256 total, uint64 count)
    {
        uint64 last = _lastIndex[agentId][client];
        for (uint64 j = 1; j <= last; j++) {
            Feedback storage f = _feedback[agentId][client][j];
            if (f.isRevoked || !_matches(f.tag1, tag1) || !_matches(f.tag2, tag2)) continue;
            total += f.score;
            count++;
        }
    }

    function _existing(uint256 agentId, address client, uint64 index) private view returns (Feedback storage) {
        if (index == 0 || index > _lastIndex[agentId][client]) revert UnknownFeedback(index);
        return _feedback[agentId][client][index];
    }

    function _matches(string storage value, string calldata filter) private pure returns (bool) {
        return bytes(filter).length == 0 || keccak256(bytes(value)) == keccak256(bytes(filter));
    }
}
