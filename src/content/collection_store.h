// A declared collection's rows: every statement on its table, built from the declaration (its
// identifiers passed content::identifier) with ? for every value. Soft delete: every read but
// the trash's carries delete_time IS NULL. Nothing here knows about HTTP.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "content/declaration.h"
#include "content/query.h"
#include "content/value.h"

namespace cms {
namespace db {
class Connection;
}
} // namespace cms

namespace cms::content {

// One column of a row as read.
struct Cell {
    bool null = true;
    int64_t integer = 0;
    std::string text;
};

// A row as answered: its id, owner, times (UTC, as stored) and one cell per answered field
// (answered_fields(collection), in that order; a file field's cell is its lin_file path).
struct Row {
    int64_t id = 0;
    std::optional<int64_t> owner;
    std::string create_time, update_time;
    std::vector<Cell> cells;
};

// The fields a row answers: the live ones that are not hidden, in declaration order.
std::vector<const Field *> answered_fields(const Collection &collection);

// Which rows a read sees: the live ones, or the trash (the soft-deleted ones).
enum class Rows { live, deleted };

// Values to write: a live field and its value, in any order, each field once.
using Assignments = std::vector<std::pair<const Field *, Value>>;

// What a write to one row did: it was done, no row had the id, or a unique value is taken (by
// another live row; nothing was written).
enum class Written { done, missing, taken };

class CollectionStore {
  public:
    CollectionStore(db::Connection &db, const Collection &collection)
        : db_(db), collection_(collection) {}

    std::optional<Row> find(int64_t id, Rows rows = Rows::live);
    // One page of the rows that query selects, owned by owner when given, and the count of all
    // of them.
    std::vector<Row> list(const Query &query, std::optional<int64_t> owner, Rows rows, int64_t page,
                          int64_t count, int64_t &total);
    // The new row's id; nullopt when a unique value is taken, with taken the id of its field
    // when the server's message names its key (else empty).
    std::optional<int64_t> insert(const Assignments &values, std::optional<int64_t> owner,
                                  std::string &taken);
    // The live row of the id changed; taken as for insert.
    Written update(int64_t id, const Assignments &values, std::string &taken);
    // Soft delete; false when no live row has the id.
    bool remove(int64_t id);
    // The deleted row of the id live again; taken as for insert.
    Written restore(int64_t id, std::string &taken);

    // Whether a live row of the relation's target has the id: a row of the collection
    // target (nullptr: a user).
    static bool target_exists(db::Connection &db, const Collection *target, int64_t id);
    // Whether a live lin_file row has the id.
    static bool file_exists(db::Connection &db, int64_t id);

  private:
    db::Connection &db_;
    const Collection &collection_;
};

} // namespace cms::content
