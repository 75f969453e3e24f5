// Reading a mariadb-dump file (written with --complete-insert) without running it: the tables it
// creates, the rows it inserts into each, the lin_file rows' paths and digests, and the binary-log
// position of its snapshot. What a backup's manifest says of the database comes from here.
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cms::dump {

// One lin_file row of the dump: the columns a backup and a restore need.
struct FileRow {
    int64_t id = 0;
    std::string path;
    std::string name;
    std::optional<std::string> sha256; // NULL for rows of before schema version 3
};

// Where the snapshot stands in the binary log (from --master-data=2 and --gtid).
struct BinlogPosition {
    std::string file;
    uint64_t position = 0;
    std::string gtid; // gtid_binlog_pos, when the dump gives it
};

struct Summary {
    std::map<std::string, int64_t> rows; // every table created, with the rows inserted into it
    std::vector<FileRow> files;          // the lin_file rows, in dump order
    std::optional<BinlogPosition> binlog;
};

// Scans a whole dump. Throws std::runtime_error when an INSERT cannot be parsed, or when
// lin_file's rows lack a column it needs.
Summary scan(std::istream &in);

} // namespace cms::dump
