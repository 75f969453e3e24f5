// The applied declaration in the database (cms_content, one row), the rows that break a
// planned check, and the DDL of an apply. Nothing here decides what to change (plan.h does).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "content/plan.h"

namespace cms {
namespace db {
class Connection;
}
} // namespace cms

namespace cms::content {

class DeclarationStore {
  public:
    explicit DeclarationStore(db::Connection &db) : db_(db) {}

    // The applied declaration's JSON text; nullopt when none was ever applied.
    std::optional<std::string> applied();
    // Makes text the applied declaration; an apply pending is done with it.
    void store(const std::string &text);
    // The target of an apply that began its DDL and did not store it (journaled before the
    // first statement); nullopt when none.
    std::optional<std::string> pending();
    void store_pending(const std::string &text);
    // How many rows break check, and the ids of the first of them (at most 10).
    int64_t breaking(const Check &check, std::vector<int64_t> &first_ids);
    // Runs a step's DDL; throws db::DbError when the server refuses it.
    void run(const Step &step);
    // The named lock of an apply, waited for up to seconds; false when another session holds it.
    bool lock(int seconds);
    // Releases it; never throws (a lost connection released it already).
    void unlock_if_connected() noexcept;
    // The characters a varchar column of table holds now; 0 when it has no such column.
    int64_t column_chars(const std::string &table, const std::string &column);

  private:
    db::Connection &db_;
};

} // namespace cms::content
