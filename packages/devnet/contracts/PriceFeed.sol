// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title Chainlink-style AggregatorV3 feed for the devnet
/// @notice Reads like a Chainlink feed; the deployer can post new rounds to simulate price moves.
contract PriceFeed {
    struct Round {
        int256 answer;
        uint256 startedAt;
        uint256 updatedAt;
    }

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

    error NotOwner();
    error NoRound(uint80 roundId);

    uint8 public immutable decimals;
    uint256 public constant version = 4;
    address public immutable owner;
    string public description;
    uint80 public latestRound;
    mapping(uint80 roundId => Round) private _rounds;

    constructor(uint8 decimals_, string memory description_, int256 initialAnswer) {
        decimals = decimals_;
        description = description_;
        owner = msg.sender;
        _post(initialAnswer);
    }

    function updateAnswer(int256 answer) external {
        if (msg.sender != owner) revert NotOwner();
        _post(answer);
    }

    function latestAnswer() external view returns (int256) {
        return _rounds[latestRound].answer;
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        return getRoundData(latestRound);
    }

    function getRoundData(uint80 roundId)
        public
        view
        returns (uint80, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        Round storage r = _rounds[roundId];
        if (r.updatedAt == 0) revert NoRound(roundId);
        return (roundId, r.answer, r.startedAt, r.updatedAt, roundId);
    }

    function _post(int256 answer) private {
        uint80 roundId = ++latestRound;
        _rounds[roundId] = Round(answer, block.timestamp, block.timestamp);
        emit AnswerUpdated(answer, roundId, block.timestamp);
    }
}
