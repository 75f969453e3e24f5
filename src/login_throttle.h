// The login throttling rule (api.md §7): whether a password check for a username from a client
// address is refused (429) before any hash is verified. Pure; the counts come from ThrottleStore.
#pragma once

#include "throttle_store.h"

namespace cms {

struct Config;

// True when the (username, address) pair, or the address, has reached its limit, or when the
// username has reached its ceiling and this address has failed for it too.
bool login_refused(const LoginFailures &failures, const Config &config);

} // namespace cms
