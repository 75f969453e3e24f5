// Schema storage: the SQL of cms_schema_version and of the list of a database's tables.
// Nothing here decides what a version means (schema.cpp does).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cms {

namespace db {
class Connection;
}

class SchemaStore {
  public:
    explicit SchemaStore(db::Connection &db) : db_(db) {}

    // Names of the tables (and views) of the connection's database.
    std::vector<std::string> tables();
    // The version cms_schema_version records; nullopt without the table or its row.
    std::optional<int64_t> recorded_version();
    // Records version as the database's (the table must exist).
    void record_version(int64_t version);

  private:
    db::Connection &db_;
};

} // namespace cms
