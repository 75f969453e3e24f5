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
    // Makes text the applied declaration.
    void store(const std::string &text);
    // How many rows break check, and the ids of the first of them (at most 10).
    int64_t breaking(const Check &check, std::vector<int64_t> &first_ids);
    // Runs a step's DDL; throws db::DbError when the server refuses it.
    void run(const Step &step);
    // The named lock of an apply, waited for up to seconds; false when another session holds it.
    bool lock(int seconds);
    void unlock();

  private:
    db::Connection &db_;
};

} // namespace cms::content
