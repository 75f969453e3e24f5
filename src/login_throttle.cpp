// The login throttling rule. Who it stops, and who it must never stop:
// - one address guessing one username: the pair limit (login_max_failures);
// - one address trying a few passwords on many usernames: the address limit;
// - many addresses guessing one username: the username ceiling, which refuses only addresses
//   that have failed for that username themselves, so that no one else's failures can lock the
//   owner, trying from an address with no failures of its own, out.
#include "login_throttle.h"

#include "config.h"

namespace cms {

bool login_refused(const LoginFailures &failures, const Config &config) {
    return failures.pair >= config.login_max_failures ||
           failures.address >= config.login_address_max_failures ||
           (failures.username >= config.login_username_max_failures && failures.pair > 0);
}

} // namespace cms
