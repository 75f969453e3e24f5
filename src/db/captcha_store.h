// Login captcha storage: the nonces of the tags that have been tried (cms_captcha_spent), so that
// a tag is good for one try on every worker and every host. No HTTP here, and no crypto.
#pragma once

#include <cstdint>
#include <string>

namespace cms {

namespace db {
class Connection;
}

class CaptchaStore {
  public:
    explicit CaptchaStore(db::Connection &db) : db_(db) {}

    // Records that the tag of nonce (raw bytes), valid until expires (seconds since the epoch),
    // has been tried; false when it had been already.
    bool spend(const std::string &nonce, int64_t expires);
    // Deletes a bounded batch of rows of tags that expired before expired_before (seconds since
    // the epoch, by the clock that judges a tag's expiry: the app's, never the database's). Its
    // range locks wait for one another's commit: run it where the transaction is short (a tag
    // being made), never before a hash.
    void prune(int64_t expired_before);

  private:
    db::Connection &db_;
};

} // namespace cms
