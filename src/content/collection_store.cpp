// The SQL of a declared collection's rows. Each statement is built from the declaration, with a
// ? for every value, and cached by its text on the connection (db::Connection::shaped): a
// collection has a few shapes, a list one per combination of conditions and sort keys used.
#include "content/collection_store.h"

#include <algorithm>

#include <mysqld_error.h>

#include "db/db.h"

namespace cms::content {

namespace {

// The columns every read selects before the fields: id, owner, and the times in UTC.
constexpr const char *k_meta_select = "SELECT t.id, t.create_user_id, t.create_time, t.update_time";
constexpr size_t k_meta_columns = 4;

std::string live_condition(Rows rows) {
    return rows == Rows::live ? "t.delete_time IS NULL" : "t.delete_time IS NOT NULL";
}

std::string select_list(const Collection &c) {
    std::string sql = k_meta_select;
    for (const Field *f : answered_fields(c)) {
        if (f->type == Type::file)
            sql += ", (SELECT path FROM lin_file WHERE id = t." + quoted(f->id) +
                   " AND delete_time IS NULL)";
        else
            sql += ", t." + quoted(f->id);
    }
    return sql + " FROM " + quoted(c.table()) + " t";
}

db::Param param(const Value &v) {
    switch (v.kind) {
    case Value::Kind::null:
        return db::Param(nullptr);
    case Value::Kind::integer:
        return db::Param(v.integer);
    case Value::Kind::text:
        return db::Param(std::string_view(v.text));
    }
    return db::Param(nullptr);
}

std::vector<Row> read_rows(db::Statement &stmt, size_t fields) {
    std::vector<Row> rows;
    while (stmt.next()) {
        Row row;
        row.id = stmt.integer(0);
        if (!stmt.is_null(1))
            row.owner = stmt.integer(1);
        row.create_time = stmt.text(2);
        row.update_time = stmt.text(3);
        for (size_t i = 0; i < fields; ++i) {
            size_t col = k_meta_columns + i;
            Cell cell;
            cell.null = stmt.is_null(col);
            if (!cell.null) {
                cell.text = stmt.text(col);
                cell.integer = std::strtoll(cell.text.c_str(), nullptr, 10);
            }
            row.cells.push_back(std::move(cell));
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

const char *operator_sql(Op op) {
    switch (op) {
    case Op::eq:
        return " = ";
    case Op::ne:
        return " <> ";
    case Op::gt:
        return " > ";
    case Op::gte:
        return " >= ";
    case Op::lt:
        return " < ";
    case Op::lte:
        return " <= ";
    case Op::in:
        return " IN ";
    }
    return " = ";
}

// A value's ?: a decimal is compared as a decimal of its field's type, never as a double (which
// MariaDB compares a DECIMAL column with a string as).
std::string mark(const Field *field) {
    if (field == nullptr || field->type != Type::decimal)
        return "?";
    return "CAST(? AS DECIMAL(" + std::to_string(field->precision) + "," +
           std::to_string(field->scale) + "))";
}

// The conditions in one order, and each in list padded to a power of two by repeating its last
// value: the statements of a collection's lists are few shapes, whatever order and lengths the
// clients send, so that they stay in the connection's cache (db::Connection::shaped).
std::vector<Condition> canonical(std::vector<Condition> conditions) {
    std::stable_sort(conditions.begin(), conditions.end(),
                     [](const Condition &a, const Condition &b) {
                         std::string ka = a.field == nullptr ? "" : a.field->id;
                         std::string kb = b.field == nullptr ? "" : b.field->id;
                         return ka != kb ? ka < kb : a.op < b.op;
                     });
    for (Condition &c : conditions) {
        size_t size = 1;
        while (size < c.values.size())
            size *= 2;
        while (c.op == Op::in && c.values.size() < size)
            c.values.push_back(c.values.back());
    }
    return conditions;
}

// The WHERE of a list (after the live condition) and its parameters, in order.
std::string where(const Query &query, std::optional<int64_t> owner, const Collection &c,
                  std::vector<db::Param> &params, std::string &pattern,
                  std::vector<Condition> &conditions) {
    std::string sql;
    conditions = canonical(query.conditions);
    for (const Condition &cond : conditions) {
        std::string column = cond.field == nullptr ? "t.id" : "t." + quoted(cond.field->id);
        sql += " AND " + column + operator_sql(cond.op);
        if (cond.op == Op::in) {
            sql += "(";
            for (size_t i = 0; i < cond.values.size(); ++i)
                sql += (i == 0 ? "" : ", ") + mark(cond.field);
            sql += ")";
        } else {
            sql += mark(cond.field);
        }
        for (const Value &v : cond.values)
            params.push_back(param(v));
    }
    if (!query.q.empty()) {
        pattern = db::like_literal(query.q);
        std::string any;
        for (const Field &f : c.fields)
            if (f.search && !f.retired && !f.hidden) {
                any += (any.empty() ? "" : " OR ") + std::string("t.") + quoted(f.id) +
                       " LIKE CONCAT('%', ?, '%') ESCAPE '\\\\'";
                params.emplace_back(std::string_view(pattern));
            }
        sql += " AND (" + any + ")";
    }
    if (owner) {
        sql += " AND t.create_user_id = ?";
        params.emplace_back(*owner);
    }
    return sql;
}

// The field whose unique key a duplicate-key error names ("Duplicate entry 'v' for key 'u_title'"):
// the last mention, since the value (a client's) comes first. Empty when the server's messages are
// in another language.
std::string taken_field(const std::string &error) {
    static const std::string k_marker = "for key '";
    size_t at = error.rfind(k_marker);
    if (at == std::string::npos)
        return "";
    size_t start = at + k_marker.size();
    std::string key = error.substr(start, error.find('\'', start) - start);
    return key.rfind("u_", 0) == 0 ? key.substr(2) : key;
}

// What write (true: a row was written) did; a duplicate key is Written::taken, with taken the
// field the server names. The live unique keys are the arbiter, also between two workers.
template <typename Write> Written unique_write(Write write, std::string &taken) {
    try {
        return write() ? Written::done : Written::missing;
    } catch (const db::DbError &e) {
        if (e.errnum != ER_DUP_ENTRY)
            throw;
        taken = taken_field(e.what());
        return Written::taken;
    }
}

} // namespace

std::vector<const Field *> answered_fields(const Collection &collection) {
    std::vector<const Field *> out;
    for (const Field &f : collection.fields)
        if (!f.retired && !f.hidden)
            out.push_back(&f);
    return out;
}

std::optional<Row> CollectionStore::find(int64_t id, Rows rows) {
    std::string sql = select_list(collection_) + " WHERE t.id = ? AND " + live_condition(rows);
    db::Statement &stmt = db_.shaped(sql).execute({id});
    std::vector<Row> found = read_rows(stmt, answered_fields(collection_).size());
    if (found.empty())
        return std::nullopt;
    return std::move(found.front());
}

std::vector<Row> CollectionStore::list(const Query &query, std::optional<int64_t> owner, Rows rows,
                                       int64_t page, int64_t count, int64_t &total) {
    std::vector<db::Param> params;
    std::string pattern;
    std::vector<Condition> conditions; // what params point into
    std::string condition = " WHERE " + live_condition(rows) +
                            where(query, owner, collection_, params, pattern, conditions);
    total = db_.shaped("SELECT COUNT(*) FROM " + quoted(collection_.table()) + " t" + condition)
                .execute(params)
                .scalar();
    std::string order;
    for (const SortKey &key : query.sort)
        order += (key.field == nullptr ? std::string("t.id") : "t." + quoted(key.field->id)) +
                 (key.descending ? " DESC, " : ", ");
    std::string sql =
        select_list(collection_) + condition + " ORDER BY " + order + "t.id LIMIT ? OFFSET ?";
    params.emplace_back(count);
    params.emplace_back(page * count);
    return read_rows(db_.shaped(sql).execute(params), answered_fields(collection_).size());
}

std::optional<int64_t> CollectionStore::insert(const Assignments &values,
                                               std::optional<int64_t> owner, std::string &taken) {
    std::string columns = "create_user_id, create_time, update_time";
    std::string marks = "?, UTC_TIMESTAMP(3), UTC_TIMESTAMP(3)";
    std::vector<db::Param> params;
    params.push_back(owner ? db::Param(*owner) : db::Param(nullptr));
    for (const auto &[field, value] : values) {
        columns += ", " + quoted(field->id);
        marks += ", ?";
        params.push_back(param(value));
    }
    std::string sql =
        "INSERT INTO " + quoted(collection_.table()) + " (" + columns + ") VALUES (" + marks + ")";
    int64_t id = 0;
    Written written = unique_write(
        [&] { return (id = static_cast<int64_t>(db_.shaped(sql).execute(params).insert_id())); },
        taken);
    return written == Written::done ? std::optional(id) : std::nullopt;
}

Written CollectionStore::update(int64_t id, const Assignments &values, std::string &taken) {
    std::string sql =
        "UPDATE " + quoted(collection_.table()) + " SET update_time = UTC_TIMESTAMP(3)";
    std::vector<db::Param> params;
    for (const auto &[field, value] : values) {
        sql += ", " + quoted(field->id) + " = ?";
        params.push_back(param(value));
    }
    sql += " WHERE id = ? AND delete_time IS NULL";
    params.emplace_back(id);
    // The connection sets CLIENT_FOUND_ROWS: an update that changes nothing still counts 1.
    return unique_write([&] { return db_.shaped(sql).execute(params).affected_rows() == 1; },
                        taken);
}

bool CollectionStore::remove(int64_t id) {
    return db_.shaped("UPDATE " + quoted(collection_.table()) +
                      " SET delete_time = UTC_TIMESTAMP(3) WHERE id = ? AND delete_time IS NULL")
               .execute({id})
               .affected_rows() == 1;
}

Written CollectionStore::restore(int64_t id, std::string &taken) {
    std::string sql = "UPDATE " + quoted(collection_.table()) +
                      " SET delete_time = NULL, update_time = UTC_TIMESTAMP(3) "
                      "WHERE id = ? AND delete_time IS NOT NULL";
    return unique_write([&] { return db_.shaped(sql).execute({id}).affected_rows() == 1; },
                        taken);
}

bool CollectionStore::target_exists(db::Connection &db, const Collection *target, int64_t id) {
    std::string table = target == nullptr ? "lin_user" : quoted(target->table());
    // Locked in share mode until the write commits: a delete of the target waits for it.
    return db.shaped("SELECT COUNT(*) FROM " + table +
                     " WHERE id = ? AND delete_time IS NULL LOCK IN SHARE MODE")
               .execute({id})
               .scalar() != 0;
}

bool CollectionStore::file_exists(db::Connection &db, int64_t id) {
    return db.shaped("SELECT COUNT(*) FROM lin_file WHERE id = ? AND delete_time IS NULL "
                     "LOCK IN SHARE MODE")
               .execute({id})
               .scalar() != 0;
}

} // namespace cms::content
