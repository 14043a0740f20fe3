// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title MockAggregator
/// @notice A devnet stand-in for a Chainlink price feed: the read side of AggregatorV3Interface
///         (decimals, description, version, latestRoundData, getRoundData), plus the proxy's
///         `aggregator()` and the OCR aggregator's `minAnswer`/`maxAnswer` circuit-breaker bounds.
///         Only the deployer may set answers (anyone could, before: a 30 USD order became payable
///         with 1 wei).
/// @dev    An answer set with setAnswer reports the current block time as its updatedAt (a feed
///         updated on every heartbeat); setRoundData pins an explicit updatedAt (a stale feed).
contract MockAggregator {
    uint8 public immutable decimals;
    string public description;
    uint256 public constant version = 4;
    address public immutable owner;
    /// @notice Chainlink's bounds for a newly deployed feed: any positive answer below int192's max.
    int192 public constant minAnswer = 1;
    int192 public constant maxAnswer = type(int192).max;

    uint80 public latestRound;
    mapping(uint80 => int256) private answers;
    mapping(uint80 => uint256) private updatedAts;

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

    error NoDataPresent();
    error NotOwner();

    constructor(uint8 decimals_, string memory description_, int256 initialAnswer) {
        decimals = decimals_;
        description = description_;
        owner = msg.sender;
        setAnswer(initialAnswer);
    }

    /// @notice The aggregator behind this "proxy": itself.
    function aggregator() external view returns (address) {
        return address(this);
    }

    /// @notice A new round whose updatedAt follows the block clock.
    function setAnswer(int256 answer) public {
        setRoundData(answer, 0);
    }

    /// @notice A new round with a fixed updatedAt (0: follow the block clock).
    function setRoundData(int256 answer, uint256 updatedAt) public {
        if (msg.sender != owner) revert NotOwner();
        latestRound += 1;
        answers[latestRound] = answer;
        updatedAts[latestRound] = updatedAt;
        emit AnswerUpdated(answer, latestRound, updatedAt == 0 ? block.timestamp : updatedAt);
    }

    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80) {
        return getRoundData(latestRound);
    }

    function getRoundData(uint80 roundId) public view returns (uint80, int256, uint256, uint256, uint80) {
        if (roundId == 0 || roundId > latestRound) revert NoDataPresent();
        uint256 updatedAt = updatedAts[roundId] == 0 ? block.timestamp : updatedAts[roundId];
        return (roundId, answers[roundId], updatedAt, updatedAt, roundId);
    }
}
