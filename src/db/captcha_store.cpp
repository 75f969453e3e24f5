// Login captcha storage: the SQL of cms_captcha_spent.
#include "db/captcha_store.h"

#include "base/text.h"
#include "db/db.h"

namespace cms {

namespace {

// A second try of one tag waits on the first's row lock, then finds the key taken.
constexpr const char *k_sql_insert_spent =
    "INSERT IGNORE INTO cms_captcha_spent (nonce, expires) VALUES (?, ?)";
// Rows of expired tags stop nothing: each tag made deletes a bounded batch of them. The time is
// the caller's: a row deleted while the app's clock still took its tag would let it be replayed.
constexpr const char *k_sql_prune_spent =
    "DELETE FROM cms_captcha_spent WHERE expires < ? LIMIT 100";

} // namespace

bool CaptchaStore::spend(const std::string &nonce, int64_t expires) {
    std::string key = text::hex(reinterpret_cast<const unsigned char *>(nonce.data()), nonce.size());
    return db_.statement(k_sql_insert_spent).execute({key, expires}).affected_rows() == 1;
}

void CaptchaStore::prune(int64_t expired_before) {
    db_.statement(k_sql_prune_spent).execute({expired_before});
}

} // namespace cms
