// The login throttling rule. Who it stops, and who it must never stop:
// - one address guessing one username: the pair limit (login_max_failures);
// - one address trying a few passwords on many usernames: the address limit;
// - many addresses guessing one username: the captcha, asked of every address once the username
//   has failed login_captcha_after times, so that each further guess costs a solved image; and
//   the username ceiling, which refuses only addresses that have had a password checked for that
//   username and failed, so that no one else's failures can lock the owner out: from an address
//   without such failures of its own, a right password with a right captcha always gets in.
// An IPv6 client is counted by its network (login_ipv6_prefix), since one host may hold a whole
// /64 and pick a fresh address for every try. A name no user has is counted under a keyed hash.
#include "api/login_throttle.h"

#include <arpa/inet.h>

#include <cstring>

#include "base/config.h"
#include "base/digest.h"
#include "base/text.h"

namespace cms {

namespace {

// What the failure key is derived from jwt_secret with, so that it is never the JWT key.
constexpr std::string_view k_failure_label = "cms-fcgi login failure username v1";

} // namespace

std::string throttle_address(const std::string &remote_addr, const Config &config) {
    in6_addr six;
    if (remote_addr.find(':') == std::string::npos ||
        inet_pton(AF_INET6, remote_addr.c_str(), &six) != 1)
        return remote_addr;
    static const unsigned char k_mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    char text[INET6_ADDRSTRLEN];
    if (std::memcmp(six.s6_addr, k_mapped, sizeof k_mapped) == 0)
        return inet_ntop(AF_INET, six.s6_addr + 12, text, sizeof text);
    int prefix = static_cast<int>(config.login_ipv6_prefix);
    for (int bit = prefix; bit < 128; ++bit)
        six.s6_addr[bit / 8] &= static_cast<unsigned char>(~(0x80u >> (bit % 8)));
    std::string network = inet_ntop(AF_INET6, &six, text, sizeof text);
    return prefix < 128 ? network + "/" + std::to_string(prefix) : network;
}

std::string account_throttle_name(int64_t user_id) {
    return "(the account of user id " + std::to_string(user_id) + ")";
}

std::string username_throttle_name(const std::string &username, std::string_view jwt_secret) {
    std::string folded = text::lower(username);
    folded.erase(folded.find_last_not_of(' ') + 1);
    std::string key = digest::hmac_sha256(jwt_secret, k_failure_label);
    std::string mac = digest::hmac_sha256(key, folded);
    return text::hex(reinterpret_cast<const unsigned char *>(mac.data()), mac.size());
}

bool login_refused(const LoginFailures &failures, const Config &config) {
    return failures.pair >= config.login_max_failures ||
           failures.address >= config.login_address_max_failures ||
           (failures.username >= config.login_username_max_failures && failures.pair_checked > 0);
}

bool login_captcha_asked(const LoginFailures &failures, const Config &config) {
    if (config.login_captcha == "always")
        return true;
    return config.login_captcha == "after_failures" &&
           (failures.address >= config.login_captcha_after ||
            failures.username >= config.login_captcha_after);
}

} // namespace cms
