// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title TetherTokenDevnet
/// @notice The sandbox's USDT: the behaviour of Tether's TetherToken on Ethereum mainnet
///         (0.4.17 source, verified on Etherscan), rewritten for 0.8 so the devnet meets the same
///         quirks a live payment does:
///         - transfer, transferFrom and approve return nothing (not the ERC-20 `bool`);
///         - approve reverts when both the current allowance and the new value are non-zero
///           (set it to 0 first);
///         - a transfer fee the owner may switch on (basisPointsRate, capped by maximumFee): the
///           recipient gets value − fee, the owner the fee, and Transfer logs say so (two events);
///         - a blocklist the owner keeps: a listed sender cannot transfer (transfer, transferFrom);
///         - pause, by the owner;
///         - 6 decimals.
///         Devnet only: anyone may `mint` (the sandbox faucet), where mainnet has the owner's `issue`.
///         It has no EIP-3009 (no gasless payments), like the real USDT.
contract TetherTokenDevnet {
    string public name;
    string public symbol;
    uint8 public decimals;
    uint256 public totalSupply;
    address public owner;
    bool public paused;

    uint256 public basisPointsRate;
    uint256 public maximumFee;
    uint256 public constant MAX_UINT = type(uint256).max;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => bool) public isBlackListed;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event AddedBlackList(address user);
    event RemovedBlackList(address user);
    event Params(uint256 feeBasisPoints, uint256 maxFee);
    event Pause();
    event Unpause();

    modifier onlyOwner() {
        require(msg.sender == owner);
        _;
    }

    modifier whenNotPaused() {
        require(!paused);
        _;
    }

    /// Mainnet's guard against short-address attacks: the calldata must hold every argument.
    modifier onlyPayloadSize(uint256 size) {
        require(!(msg.data.length < size + 4));
        _;
    }

    constructor(string memory name_, string memory symbol_, uint8 decimals_) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        owner = msg.sender;
    }

    function balanceOfOwner() external view returns (uint256) {
        return balanceOf[owner];
    }

    function mint(address to, uint256 amount) external {
        require(to != address(0));
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function _fee(uint256 value) private view returns (uint256 fee) {
        fee = (value * basisPointsRate) / 10000;
        if (fee > maximumFee) fee = maximumFee;
    }

    function transfer(address to, uint256 value) external whenNotPaused onlyPayloadSize(2 * 32) {
        require(!isBlackListed[msg.sender]);
        uint256 fee = _fee(value);
        uint256 sendAmount = value - fee;
        require(balanceOf[msg.sender] >= value);
        balanceOf[msg.sender] -= value;
        balanceOf[to] += sendAmount;
        if (fee > 0) {
            balanceOf[owner] += fee;
            emit Transfer(msg.sender, owner, fee);
        }
        emit Transfer(msg.sender, to, sendAmount);
    }

    function transferFrom(address from, address to, uint256 value) external whenNotPaused onlyPayloadSize(3 * 32) {
        require(!isBlackListed[from]);
        uint256 allowed = allowance[from][msg.sender];
        uint256 fee = _fee(value);
        if (allowed < MAX_UINT) {
            require(allowed >= value);
            allowance[from][msg.sender] = allowed - value;
        }
        uint256 sendAmount = value - fee;
        require(balanceOf[from] >= value);
        balanceOf[from] -= value;
        balanceOf[to] += sendAmount;
        if (fee > 0) {
            balanceOf[owner] += fee;
            emit Transfer(from, owner, fee);
        }
        emit Transfer(from, to, sendAmount);
    }

    function approve(address spender, uint256 value) external onlyPayloadSize(2 * 32) {
        // To change the approve amount you first have to reduce the spender's allowance to zero.
        require(!((value != 0) && (allowance[msg.sender][spender] != 0)));
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
    }

    function addBlackList(address user) external onlyOwner {
        isBlackListed[user] = true;
        emit AddedBlackList(user);
    }

    function removeBlackList(address user) external onlyOwner {
        isBlackListed[user] = false;
        emit RemovedBlackList(user);
    }

    /// Mainnet's bounds: under 20 basis points, a fee under 50 whole tokens.
    function setParams(uint256 newBasisPoints, uint256 newMaxFee) external onlyOwner {
        require(newBasisPoints < 20);
        require(newMaxFee < 50);
        basisPointsRate = newBasisPoints;
        maximumFee = newMaxFee * (10 ** decimals);
        emit Params(basisPointsRate, maximumFee);
    }

    function pause() external onlyOwner {
        paused = true;
        emit Pause();
    }

    function unpause() external onlyOwner {
        paused = false;
        emit Unpause();
    }
}
