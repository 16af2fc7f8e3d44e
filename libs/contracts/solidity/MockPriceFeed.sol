// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @notice Chainlink-aggregator-shaped price source with an owner-set answer. Aave's oracle reads
/// latestAnswer(); indexers usually read latestRoundData() and the AnswerUpdated event, so both exist.
contract MockPriceFeed is Ownable {
    struct Round {
        int256 answer;
        uint64 updatedAt;
    }

    uint8 public immutable decimals;
    string public description;
    uint80 public latestRound;
    mapping(uint80 => Round) private _rounds;

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);
    event NewRound(uint256 indexed roundId, address indexed startedBy, uint256 startedAt);

    constructor(uint8 decimals_, string memory description_, int256 initialAnswer, address owner_) Ownable(owner_) {
        decimals = decimals_;
        description = description_;
        _record(initialAnswer);
    }

    function setAnswer(int256 answer) external onlyOwner {
        _record(answer);
    }

    function version() external pure returns (uint256) {
        return 4;
    }

    function latestAnswer() external view returns (int256) {
        return _rounds[latestRound].answer;
    }

    function latestTimestamp() external view returns (uint256) {
        return _rounds[latestRound].updatedAt;
    }

    function getAnswer(uint256 roundId) external view returns (int256) {
        return _rounds[uint80(roundId)].answer;
    }

    function getTimestamp(uint256 roundId) external view returns (uint256) {
        return _rounds[uint80(roundId)].updatedAt;
    }

    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80) {
        return getRoundData(latestRound);
    }

    function getRoundData(uint80 roundId) public view returns (uint80, int256, uint256, uint256, uint80) {
        Round memory r = _rounds[roundId];
        require(r.updatedAt != 0, "MockPriceFeed: no data");
        return (roundId, r.answer, r.updatedAt, r.updatedAt, roundId);
    }

    function _record(int256 answer) private {
        uint80 id = latestRound + 1;
        latestRound = id;
        _rounds[id] = Round(answer, uint64(block.timestamp));
        emit NewRound(id, msg.sender, block.timestamp);
        emit AnswerUpdated(answer, id, block.timestamp);
    }
}
