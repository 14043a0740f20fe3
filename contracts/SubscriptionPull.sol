// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice What a subscriber agrees to. The pull contract's CREATE2 address is derived from every
///         field, so an allowance (approve or EIP-2612 permit) to that address is consent to
///         exactly these terms and to nothing else.
struct SubscriptionTerms {
    /// ERC-20 the subscription is paid in.
    address token;
    /// The customer's wallet: the only one ever debited.
    address subscriber;
    /// The merchant's wallet recorded for the subscription: the only one ever paid.
    address merchant;
    /// The gateway's key: may trigger charges and cancel, nothing else.
    address operator;
    /// The most one period may be charged, in token base units (the cap the subscriber saw).
    uint256 maxAmountPerPeriod;
    /// Length of a period in seconds.
    uint64 period;
    /// Start of period 0 (the end of any trial): nothing is charged before it.
    uint64 start;
    /// No period starting at or after this time is charged; 0 for open-ended.
    uint64 end;
    /// The gateway's subscription id, so two subscriptions on equal terms get two contracts.
    bytes32 id;
}

/// @title SubscriptionPull
/// @notice One contract per subscription, holding no funds: it moves at most `maxAmountPerPeriod`
///         once per period from the subscriber straight to the merchant, and nothing once
///         cancelled (by the subscriber, the merchant or the operator) or after `end`. Periods
///         missed are not caught up later: a period can only be charged while it runs.
/// @dev Every term is immutable (in the code, read at no storage cost); the only state is the
///      next chargeable period and the cancellation flag, packed in one slot.
contract SubscriptionPull {
    address public immutable token;
    address public immutable subscriber;
    address public immutable merchant;
    address public immutable operator;
    uint256 public immutable maxAmountPerPeriod;
    uint64 public immutable period;
    uint64 public immutable start;
    uint64 public immutable end;
    bytes32 public immutable id;

    /// @notice The first period index not yet charged: every lower period is charged or forfeited.
    uint64 public nextPeriod;
    bool public canceled;

    event Charged(uint64 indexed periodIndex, uint256 amount);
    event Canceled(address indexed by);

    error InvalidTerms();
    error NotAllowed();
    error SubscriptionCanceled();
    error NotStarted();
    error SubscriptionEnded();
    error PeriodAlreadyCharged(uint64 periodIndex);
    error AmountOverCap();
    error TokenTransferFailed();

    constructor(SubscriptionTerms memory terms) {
        if (
            terms.token.code.length == 0 ||
            terms.subscriber == address(0) ||
            terms.merchant == address(0) ||
            terms.operator == address(0) ||
            terms.maxAmountPerPeriod == 0 ||
            terms.period == 0 ||
            (terms.end != 0 && terms.end <= terms.start)
        ) revert InvalidTerms();
        token = terms.token;
        subscriber = terms.subscriber;
        merchant = terms.merchant;
        operator = terms.operator;
        maxAmountPerPeriod = terms.maxAmountPerPeriod;
        period = terms.period;
        start = terms.start;
        end = terms.end;
        id = terms.id;
    }

    /// @notice The period running now (reverts before `start`).
    function currentPeriod() public view returns (uint64) {
        if (block.timestamp < start) revert NotStarted();
        return uint64((block.timestamp - start) / period);
    }

    /// @notice Whether `charge` would pass its own checks now (the token may still refuse).
    function chargeable() external view returns (bool) {
        if (canceled || block.timestamp < start) return false;
        uint64 current = uint64((block.timestamp - start) / period);
        if (current < nextPeriod) return false;
        return end == 0 || uint256(start) + uint256(current) * period < end;
    }

    /// @notice Charges the running period `amount` (at most the cap), paid to the merchant.
    /// @dev Only the operator or the merchant: anyone else could spend a period on a dust amount.
    function charge(uint256 amount) external returns (uint64 periodIndex) {
        if (msg.sender != operator && msg.sender != merchant) revert NotAllowed();
        if (canceled) revert SubscriptionCanceled();
        periodIndex = currentPeriod();
        if (end != 0 && uint256(start) + uint256(periodIndex) * period >= end) revert SubscriptionEnded();
        if (periodIndex < nextPeriod) revert PeriodAlreadyCharged(periodIndex);
        if (amount == 0 || amount > maxAmountPerPeriod) revert AmountOverCap();
        nextPeriod = periodIndex + 1;
        // transferFrom(subscriber, merchant, amount); tolerates tokens that return nothing (USDT style).
        (bool ok, bytes memory data) = token.call(abi.encodeWithSelector(0x23b872dd, subscriber, merchant, amount));
        if (!ok || (data.length != 0 && (data.length < 32 || !abi.decode(data, (bool))))) revert TokenTransferFailed();
        emit Charged(periodIndex, amount);
    }

    /// @notice Ends the subscription for good. The subscriber, the merchant or the operator.
    function cancel() external {
        if (msg.sender != subscriber && msg.sender != merchant && msg.sender != operator) revert NotAllowed();
        if (canceled) return;
        canceled = true;
        emit Canceled(msg.sender);
    }
}

/// @title SubscriptionFactory
/// @notice Deploys a subscription's pull contract at the CREATE2 address its terms determine.
///         Anyone may deploy: a contract only moves funds the subscriber allowed to its own address.
contract SubscriptionFactory {
    event SubscriptionDeployed(address indexed pull, address indexed subscriber, address indexed merchant, bytes32 id);

    /// @notice Where the pull contract for `terms` lives (deployed or not).
    function subscriptionAddress(SubscriptionTerms calldata terms) public view returns (address) {
        bytes32 initCodeHash = keccak256(abi.encodePacked(type(SubscriptionPull).creationCode, abi.encode(terms)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), terms.id, initCodeHash)))));
    }

    /// @notice Deploys the pull contract for `terms` unless it exists; returns its address.
    function deploy(SubscriptionTerms calldata terms) public returns (address pull) {
        pull = subscriptionAddress(terms);
        if (pull.code.length != 0) return pull;
        SubscriptionPull deployed = new SubscriptionPull{salt: terms.id}(terms);
        emit SubscriptionDeployed(address(deployed), terms.subscriber, terms.merchant, terms.id);
        return address(deployed);
    }

    /// @notice Deploys the pull contract and submits the subscriber's EIP-2612 permit to it, in one
    ///         transaction, so the subscriber signs once and pays no gas.
    /// @dev A permit front-run by someone else is already spent: the call then only checks that
    ///      the allowance is in place (the usual guard against permit griefing).
    function deployWithPermit(SubscriptionTerms calldata terms, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external returns (address pull) {
        pull = deploy(terms);
        (bool ok, ) = terms.token.call(
            abi.encodeWithSelector(0xd505accf, terms.subscriber, pull, value, deadline, v, r, s)
        );
        if (!ok) {
            (bool read, bytes memory data) = terms.token.staticcall(abi.encodeWithSelector(0xdd62ed3e, terms.subscriber, pull));
            if (!read || data.length < 32 || abi.decode(data, (uint256)) < value) revert PermitFailed();
        }
    }

    error PermitFailed();
}
