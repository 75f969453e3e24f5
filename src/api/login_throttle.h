// The login throttling rules (doc/api.md §7, §8): the address a client is counted under, whether
// a password check for a username from that address is refused (429) before any hash is
// verified, and whether it needs a captcha first. Pure; the counts come from ThrottleStore.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "db/throttle_store.h"

namespace cms {

struct Config;

// The address the throttle counts a client under: an IPv4 address as it is (/32); an IPv6
// address as its network of login_ipv6_prefix bits, written "2001:db8:1:2::/64" (the whole
// address, without a prefix, at 128); an IPv4-mapped IPv6 address as its IPv4 address. Anything
// that is not an address (empty, a unix socket) as it is.
std::string throttle_address(const std::string &remote_addr, const Config &config);

// The name a user's failed password checks are recorded under in cms_login_failure's username
// column: "(the account of user id N)", by the user's id, so that a rename (PUT /cms/user, which
// needs no password) starts no fresh count. Longer than lin_user.username's 24 characters: no
// user has it.
std::string account_throttle_name(int64_t user_id);

// The name a failed password check for username is recorded and counted under in
// cms_login_failure when no user has that name (a user's are by account_throttle_name): the
// HMAC-SHA256 of username, ASCII case and trailing spaces aside (as the column's collation
// compared the text), under a key derived from jwt_secret with its own label, as 64 hex digits.
// A username typed is often a password typed into the wrong box: neither the table nor the
// binary log may keep it, and a digest without the key could be guessed against offline.
std::string username_throttle_name(const std::string &username, std::string_view jwt_secret);

// True when the (username, address) pair, or the address, has reached its limit, or when the
// username has reached its ceiling and this address has had a password checked for it and failed
// (a refusal for the captcha alone does not count there: the owner's first try from a fresh
// address is one, and must not lock them out).
bool login_refused(const LoginFailures &failures, const Config &config);

// True when login_captcha is always, or after_failures and either the address or the username
// has failed login_captcha_after times or more (failures.pair plays no part); never when off.
bool login_captcha_asked(const LoginFailures &failures, const Config &config);

} // namespace cms
