// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";

/// @title ERC-8004 Reputation Registry (devnet build, the v1 interface)
/// @notice Clients leave feedback about an agent: a signed fixed-point `value` with `valueDecimals`
///         (0-18), two tags, the endpoint it concerns and an off-chain file (URI + hash), which may carry
///         the x402 `proofOfPayment`. Owners and their operators cannot rate their own agent. Feedback is
///         1-indexed per (agent, client) and can be revoked. `getSummary` averages over the clients a
///         reader names (it requires them: reviewers are chosen, never "everyone").
contract ReputationRegistry {
    struct Feedback {
        int128 value;
        uint8 valueDecimals;
        string tag1;
        string tag2;
        bool isRevoked;
    }

    event NewFeedback(
        uint256 indexed agentId,
        address indexed clientAddress,
        uint64 feedbackIndex,
        int128 value,
        uint8 valueDecimals,
        string indexed indexedTag1,
        string tag1,
        string tag2,
        string endpoint,
        string feedbackURI,
        bytes32 feedbackHash
    );
    event FeedbackRevoked(uint256 indexed agentId, address indexed clientAddress, uint64 indexed feedbackIndex);
    event ResponseAppended(
        uint256 indexed agentId,
        address indexed clientAddress,
        uint64 feedbackIndex,
        address indexed responder,
        string responseURI,
        bytes32 responseHash
    );

    error TooManyDecimals(uint8 valueDecimals);
    error ValueTooLarge(int128 value);
    error SelfFeedback();
    error ClientsRequired();
    error UnknownFeedback(uint64 feedbackIndex);
    error AlreadyRevoked(uint64 feedbackIndex);

    int128 private constant MAX_ABS_VALUE = 1e38;
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
        int128 value,
        uint8 valueDecimals,
        string memory tag1,
        string memory tag2,
        string memory endpoint,
        string memory feedbackURI,
        bytes32 feedbackHash
    ) external {
        uint64 index = _store(agentId, Feedback(value, valueDecimals, tag1, tag2, false));
        emit NewFeedback(
            agentId, msg.sender, index, value, valueDecimals, tag1, tag1, tag2, endpoint, feedbackURI, feedbackHash
        );
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
        string calldata responseURI,
        bytes32 responseHash
    ) external {
        _existing(agentId, clientAddress, feedbackIndex);
        emit ResponseAppended(agentId, clientAddress, feedbackIndex, msg.sender, responseURI, responseHash);
    }

    function readFeedback(uint256 agentId, address clientAddress, uint64 feedbackIndex)
        external
        view
        returns (int128 value, uint8 valueDecimals, string memory tag1, string memory tag2, bool isRevoked)
    {
        Feedback storage f = _existing(agentId, clientAddress, feedbackIndex);
        return (f.value, f.valueDecimals, f.tag1, f.tag2, f.isRevoked);
    }

    function getLastIndex(uint256 agentId, address clientAddress) external view returns (uint64) {
        return _lastIndex[agentId][clientAddress];
    }

    function getClients(uint256 agentId) external view returns (address[] memory) {
        return _clients[agentId];
    }

    /// Average of the non-revoked feedback of the named clients (tags filter when non-empty), at the
    /// precision most of that feedback used.
    function getSummary(uint256 agentId, address[] calldata clientAddresses, string memory tag1, string memory tag2)
        external
        view
        returns (uint64 count, int128 summaryValue, uint8 summaryValueDecimals)
    {
        if (clientAddresses.length == 0) revert ClientsRequired();
        int256 sumWad;
        uint64[19] memory byDecimals;
        for (uint256 i; i < clientAddresses.length; i++) {
            (int256 clientSum, uint64 clientCount) = _sumClient(agentId, clientAddresses[i], tag1, tag2, byDecimals);
            sumWad += clientSum;
            count += clientCount;
        }
        if (count == 0) return (0, 0, 0);
        for (uint8 d = 1; d <= 18; d++) {
            if (byDecimals[d] > byDecimals[summaryValueDecimals]) summaryValueDecimals = d;
        }
        summaryValue = int128(sumWad / int256(uint256(count)) / int256(10 ** (18 - uint256(summaryValueDecimals))));
    }

    /// One client's matching feedback, summed in 18 decimals; counts each precision into `byDecimals`.
    function _sumClient(
        uint256 agentId,
        address client,
        string memory tag1,
        string memory tag2,
        uint64[19] memory byDecimals
    ) private view returns (int256 sumWad, uint64 count) {
        uint64 last = _lastIndex[agentId][client];
        for (uint64 j = 1; j <= last; j++) {
            Feedback storage f = _feedback[agentId][client][j];
            if (f.isRevoked || !_matches(f.tag1, tag1) || !_matches(f.tag2, tag2)) continue;
            sumWad += int256(f.value) * int256(10 ** (18 - uint256(f.valueDecimals)));
            byDecimals[f.valueDecimals]++;
            count++;
        }
    }

    /// Checks and stores one feedback of `msg.sender` (its own function: the event's arguments fill the stack).
    function _store(uint256 agentId, Feedback memory feedback) private returns (uint64 index) {
        if (feedback.valueDecimals > 18) revert TooManyDecimals(feedback.valueDecimals);
        if (feedback.value > MAX_ABS_VALUE || feedback.value < -MAX_ABS_VALUE) revert ValueTooLarge(feedback.value);
        address owner = _identity.ownerOf(agentId); // reverts for unknown agents
        if (
            msg.sender == owner || _identity.isApprovedForAll(owner, msg.sender)
                || _identity.getApproved(agentId) == msg.sender
        ) revert SelfFeedback();
        index = ++_lastIndex[agentId][msg.sender];
        if (index == 1) _clients[agentId].push(msg.sender);
        _feedback[agentId][msg.sender][index] = feedback;
    }

    function _existing(uint256 agentId, address client, uint64 index) private view returns (Feedback storage) {
        if (index == 0 || index > _lastIndex[agentId][client]) revert UnknownFeedback(index);
        return _feedback[agentId][client][index];
    }

    function _matches(string storage value, string memory filter) private pure returns (bool) {
        return bytes(filter).length == 0 || keccak256(bytes(value)) == keccak256(bytes(filter));
    }
}
