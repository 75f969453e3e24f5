// The login throttling rules (doc/api.md §7, §8): whether a password check for a username from a
// client address is refused (429) before any hash is verified, and whether a login from the
// address needs a captcha first. Pure; the counts come from ThrottleStore.
#pragma once

#include "db/throttle_store.h"

namespace cms {

struct Config;

// True when the (username, address) pair, or the address, has reached its limit, or when the
// username has reached its ceiling and this address has failed for it too.
bool login_refused(const LoginFailures &failures, const Config &config);

// True when login_captcha is always, or after_failures and the address has address_failures at
// or above login_captcha_after; never when it is off.
bool login_captcha_asked(int64_t address_failures, const Config &config);

} // namespace cms
