// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title PayoutDisperser
/// @notice Pays the legs of one payout batch in one transaction, from the caller's own funds: the
///         native coin sent with the call, or an ERC-20 the caller approved this contract for. Each
///         leg is a separate call whose success is recorded in an event, so a recipient that
///         refuses the money (a contract that reverts) fails alone and the other legs are paid.
///         The contract keeps nothing: it has no owner, no storage, and what a failed native leg
///         did not pay goes back to the caller in the same transaction.
contract PayoutDisperser {
    /// @notice Gas given to a native leg's recipient: enough for a smart wallet's receive, too
    ///         little for one recipient to starve the legs after it.
    uint256 public constant NATIVE_LEG_GAS = 100_000;

    /// @notice One leg paid. `token` is the zero address for the native coin.
    event LegPaid(uint256 indexed batchId, uint256 indexed leg, address indexed to, address token, uint256 amount);
    /// @notice One leg not paid (the recipient reverted, or the token refused the transfer); nothing moved for it.
    event LegFailed(uint256 indexed batchId, uint256 indexed leg, address indexed to, address token, uint256 amount);

    error LengthMismatch();
    error WrongValue(uint256 expected, uint256 sent);
    error RefundFailed();

    /// @notice Pays `amounts[i]` wei to `recipients[i]`; msg.value must be their exact sum.
    function payNative(uint256 batchId, address[] calldata recipients, uint256[] calldata amounts) external payable {
        if (recipients.length != amounts.length) revert LengthMismatch();
        uint256 total = 0;
        for (uint256 i = 0; i < amounts.length; ++i) total += amounts[i];
        if (total != msg.value) revert WrongValue(total, msg.value);
        uint256 unpaid = 0;
        for (uint256 i = 0; i < recipients.length; ++i) {
            (bool ok, ) = recipients[i].call{value: amounts[i], gas: NATIVE_LEG_GAS}("");
            if (ok) {
                emit LegPaid(batchId, i, recipients[i], address(0), amounts[i]);
            } else {
                unpaid += amounts[i];
                emit LegFailed(batchId, i, recipients[i], address(0), amounts[i]);
            }
        }
        if (unpaid != 0) {
            (bool back, ) = msg.sender.call{value: unpaid}("");
            if (!back) revert RefundFailed();
        }
    }

    /// @notice Pays `amounts[i]` of `token` from the caller to `recipients[i]` (transferFrom: the
    ///         caller approves this contract for the batch's total first).
    /// @dev Tolerates tokens whose transferFrom returns no value (USDT style).
    function payToken(uint256 batchId, address token, address[] calldata recipients, uint256[] calldata amounts) external {
        if (recipients.length != amounts.length) revert LengthMismatch();
        for (uint256 i = 0; i < recipients.length; ++i) {
            (bool ok, bytes memory data) = token.call(abi.encodeWithSelector(0x23b872dd, msg.sender, recipients[i], amounts[i]));
            if (ok && (data.length == 0 ? token.code.length != 0 : data.length >= 32 && abi.decode(data, (bool)))) {
                emit LegPaid(batchId, i, recipients[i], token, amounts[i]);
            } else {
                emit LegFailed(batchId, i, recipients[i], token, amounts[i]);
            }
        }
    }
}
