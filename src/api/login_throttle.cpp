// The login throttling rule. Who it stops, and who it must never stop:
// - one address guessing one username: the pair limit (login_max_failures);
// - one address trying a few passwords on many usernames: the address limit;
// - many addresses guessing one username: the username ceiling, which refuses only addresses
//   that have failed for that username themselves, so that no one else's failures can lock the
//   owner, trying from an address with no failures of its own, out.
// Below those limits, the captcha (after_failures) slows an address that has started failing,
// for every username, without locking anyone out.
#include "api/login_throttle.h"

#include "base/config.h"

namespace cms {

bool login_refused(const LoginFailures &failures, const Config &config) {
    return failures.pair >= config.login_max_failures ||
           failures.address >= config.login_address_max_failures ||
           (failures.username >= config.login_username_max_failures && failures.pair > 0);
}

bool login_captcha_asked(int64_t address_failures, const Config &config) {
    if (config.login_captcha == "always")
        return true;
    return config.login_captcha == "after_failures" &&
           address_failures >= config.login_captcha_after;
}

} // namespace cms
