// The plan of an apply: applied and declared compared collection by collection and field by
// field, by id. Names are never part of what is stored (tables and columns are named by ids), so
// a rename is a note; a removal is a retirement; a type change is a refusal.
#include "content/plan.h"

#include <algorithm>

#include "content/value.h"

namespace cms::content {

namespace {

std::string column_type(const Field &f) {
    switch (f.type) {
    case Type::string:
    case Type::url:
    case Type::email:
    case Type::enumeration:
        return "varchar(" + std::to_string(f.max_length.value_or(255)) + ")";
    case Type::text:
        return "mediumtext";
    case Type::integer:
        return "bigint";
    case Type::decimal:
        return "decimal(" + std::to_string(f.precision) + "," + std::to_string(f.scale) + ")";
    case Type::boolean:
        return "tinyint(1)";
    case Type::date:
        return "date";
    case Type::datetime:
        return "datetime(3)";
    case Type::relation:
    case Type::file:
        return "int unsigned";
    }
    return "";
}

// text as a SQL string literal, ' and \ escaped.
std::string quoted_text(const std::string &text) {
    std::string out = "'";
    for (char c : text) {
        if (c == '\'' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "'";
}

// The SQL literal of a checked default, as it is stored: the value convert() makes of it (a
// datetime in UTC, a decimal's canonical digits, a boolean 0 or 1), never a double's text.
std::string literal(const Field &f) {
    Value v;
    convert(f, *f.default_value, {}, v);
    if (v.kind == Value::Kind::integer)
        return std::to_string(v.integer);
    return v.kind == Value::Kind::text ? quoted_text(v.text) : "NULL";
}

bool plain_index(const Field &f) {
    return (f.filter || f.sort) && !f.unique;
}

std::string unique_key(const Field &f) {
    return quoted("u_" + f.id);
}
std::string plain_key(const Field &f) {
    return quoted("k_" + f.id);
}

class Planner {
  public:
    explicit Planner(Plan &plan) : plan_(plan) {}

    void create(const Collection &c);
    void add_field(const Collection &c, const Field &f);
    void change_field(const Collection &c, const Field &was, const Field &now);

  private:
    void step(const std::string &what, const std::string &sql) {
        Step s;
        s.what = what;
        s.sql = sql;
        plan_.steps.push_back(std::move(s));
    }
    // A check over every row of c, live or deleted (a restored row must pass too).
    void check(const Collection &c, const std::string &what, const std::string &condition) {
        plan_.checks.push_back({what, quoted(c.table()), condition, ""});
    }
    void refuse(const Collection &c, const Field &f, const std::string &rule) {
        plan_.refusals.push_back({"collection " + c.id + ", field " + f.id, rule});
    }
    std::string alter(const Collection &c) { return "ALTER TABLE " + quoted(c.table()) + " "; }

    Plan &plan_;
};

void Planner::create(const Collection &c) {
    std::string sql = "CREATE TABLE IF NOT EXISTS " + quoted(c.table()) +
                      " (\n  id int unsigned NOT NULL AUTO_INCREMENT,\n"
                      "  create_user_id int unsigned DEFAULT NULL,\n"
                      "  create_time datetime(3) NOT NULL,\n"
                      "  update_time datetime(3) NOT NULL,\n"
                      "  delete_time datetime(3) DEFAULT NULL,\n"
                      "  live tinyint AS (IF(delete_time IS NULL, 1, NULL)) PERSISTENT,\n";
    std::string keys = "  PRIMARY KEY (id),\n  KEY create_user (create_user_id)";
    for (const Field &f : c.fields) {
        sql += "  " + column_definition(f) + ",\n";
        if (f.unique)
            keys += ",\n  UNIQUE KEY " + unique_key(f) + " (" + quoted(f.id) + ", live)";
        if (plain_index(f))
            keys += ",\n  KEY " + plain_key(f) + " (" + quoted(f.id) + ")";
    }
    sql += keys + "\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci";
    step("create the table of collection " + c.id, sql);
}

void Planner::add_field(const Collection &c, const Field &f) {
    if (!f.nullable && !f.default_value)
        check(c,
              "collection " + c.id + ", new field " + f.id +
                  ": rows that would have no value (give the field a default)",
              "1 = 1");
    std::string definition = column_definition(f);
    if (f.default_value && !f.nullable)
        definition.replace(definition.rfind("DEFAULT NULL"), 12, "DEFAULT " + literal(f));
    step("add field " + f.id + " to collection " + c.id,
         alter(c) + "ADD COLUMN IF NOT EXISTS " + definition + ", ALGORITHM=INSTANT");
    if (f.unique)
        step("index field " + f.id + " of collection " + c.id + " as unique",
             alter(c) + "ADD UNIQUE KEY IF NOT EXISTS " + unique_key(f) + " (" + quoted(f.id) +
                 ", live), ALGORITHM=NOCOPY, LOCK=NONE");
    if (plain_index(f))
        step("index field " + f.id + " of collection " + c.id,
             alter(c) + "ADD KEY IF NOT EXISTS " + plain_key(f) + " (" + quoted(f.id) +
                 "), ALGORITHM=NOCOPY, LOCK=NONE");
}

void Planner::change_field(const Collection &c, const Field &was, const Field &now) {
    std::string at = "collection " + c.id + ", field " + now.id + ": ";
    std::string col = quoted(now.id);
    if (was.type != now.type || was.target != now.target ||
        (now.type == Type::decimal && (was.scale != now.scale || now.precision < was.precision))) {
        refuse(c, now,
               std::string("cannot change from ") + type_name(was.type) + " to " +
                   type_name(now.type) + " in place: add a field with a new id and " +
                   "the new type, copy the values over, then remove this one (it is " +
                   "retired, and its values stay)");
        return;
    }
    if (now.max_length && was.max_length && *now.max_length < *was.max_length)
        check(c,
              at + "max " + std::to_string(*was.max_length) + " -> " +
                  std::to_string(*now.max_length),
              "CHAR_LENGTH(" + col + ") > " + std::to_string(*now.max_length));
    if (now.min_length.value_or(0) > was.min_length.value_or(0))
        check(c, at + "min " + std::to_string(now.min_length.value_or(0)),
              "CHAR_LENGTH(" + col + ") < " + std::to_string(*now.min_length));
    if (now.min_value && now.min_value != was.min_value)
        check(c, at + "min " + *now.min_value, col + " < " + *now.min_value);
    if (now.max_value && now.max_value != was.max_value)
        check(c, at + "max " + *now.max_value, col + " > " + *now.max_value);
    // Rows made while the field was retired hold NULL, whatever it said then.
    if (!now.nullable && (was.nullable || was.retired))
        check(c, at + (now.required ? "required" : "nullable false"), col + " IS NULL");
    if (now.type == Type::enumeration &&
        std::any_of(was.values.begin(), was.values.end(), [&](const std::string &v) {
            return std::find(now.values.begin(), now.values.end(), v) == now.values.end();
        })) {
        std::string in;
        for (const std::string &v : now.values)
            in += (in.empty() ? "" : ", ") + quoted_text(v);
        // Byte for byte, as the engine checks a value: the column's collation ignores case.
        check(c, at + "enum values removed", "BINARY " + col + " NOT IN (" + in + ")");
    }
    bool varchar = now.type == Type::string || now.type == Type::url;
    if (varchar && now.max_length > was.max_length)
        plan_.steps.push_back({"widen field " + now.id + " of collection " + c.id + " to " +
                                   std::to_string(*now.max_length) +
                                   " characters (may copy the table: a varchar's length bytes "
                                   "can change)",
                               alter(c) + "MODIFY COLUMN " + column_definition(now), c.table(),
                               now.id, *now.max_length});
    else if (now.type == Type::decimal && now.precision > was.precision)
        step("widen field " + now.id + " of collection " + c.id + " to decimal(" +
                 std::to_string(now.precision) + "," + std::to_string(now.scale) +
                 ") (copies the table)",
             alter(c) + "MODIFY COLUMN " + column_definition(now));
    if (now.unique && !was.unique) {
        plan_.checks.push_back(
            {at + "unique: live values held by more than one row", quoted(c.table()), "", col});
        step("index field " + now.id + " of collection " + c.id + " as unique",
             alter(c) + "ADD UNIQUE KEY IF NOT EXISTS " + unique_key(now) + " (" + col +
                 ", live), ALGORITHM=NOCOPY, LOCK=NONE");
    }
    if (!now.unique && was.unique)
        step("drop the unique index of field " + now.id + " of collection " + c.id,
             alter(c) + "DROP INDEX IF EXISTS " + unique_key(now) +
                 ", ALGORITHM=NOCOPY, LOCK=NONE");
    if (plain_index(now) && !plain_index(was))
        step("index field " + now.id + " of collection " + c.id,
             alter(c) + "ADD KEY IF NOT EXISTS " + plain_key(now) + " (" + col +
                 "), ALGORITHM=NOCOPY, LOCK=NONE");
    if (!plain_index(now) && plain_index(was))
        step("drop the index of field " + now.id + " of collection " + c.id,
             alter(c) + "DROP INDEX IF EXISTS " + plain_key(now) + ", ALGORITHM=NOCOPY, LOCK=NONE");
    if (was.retired)
        plan_.notes.push_back(at + "re-added: its values are back");
    if (was.name != now.name)
        plan_.notes.push_back(at + "renamed from " + was.name + " to " + now.name);
}

const Field *field_by_id(const Collection &c, const std::string &id) {
    for (const Field &f : c.fields)
        if (f.id == id)
            return &f;
    return nullptr;
}

Json::Value field_document(const Field &f) {
    Json::Value out = f.source;
    if (f.retired)
        out["retired"] = true;
    else
        out.removeMember("retired");
    return out;
}

} // namespace

std::string column_definition(const Field &field) {
    return quoted(field.id) + " " + column_type(field) + " DEFAULT NULL";
}

Plan plan(const Declaration &applied, const Declaration &declared) {
    Plan out;
    Planner planner(out);
    for (const Collection &now : declared.collections) {
        Collection merged = now;
        const Collection *was = applied.by_id(now.id);
        if (was == nullptr) {
            planner.create(now);
            out.merged.collections.push_back(std::move(merged));
            continue;
        }
        if (was->retired)
            out.notes.push_back("collection " + now.id + ": re-added, its rows are back");
        if (was->name != now.name)
            out.notes.push_back("collection " + now.id + ": renamed from " + was->name + " to " +
                                now.name + " (its routes are /v1/" + now.name + ")");
        for (const Field &f : now.fields) {
            const Field *before = field_by_id(*was, f.id);
            if (before == nullptr)
                planner.add_field(now, f);
            else
                planner.change_field(now, *before, f);
        }
        for (const Field &f : was->fields)
            if (field_by_id(now, f.id) == nullptr) {
                Field retired = f;
                if (!retired.retired)
                    out.notes.push_back("collection " + now.id + ", field " + f.id +
                                        ": retired (hidden; its column and values stay)");
                retired.retired = true;
                merged.fields.push_back(std::move(retired));
            }
        out.merged.collections.push_back(std::move(merged));
    }
    for (const Collection &was : applied.collections)
        if (declared.by_id(was.id) == nullptr) {
            Collection retired = was;
            if (!retired.retired)
                out.notes.push_back("collection " + was.id +
                                    ": retired (hidden; its table, rows and grants stay)");
            retired.retired = true;
            out.merged.collections.push_back(std::move(retired));
        }
    return out;
}

Json::Value document(const Declaration &declaration) {
    Json::Value out(Json::objectValue);
    Json::Value &list = out["collections"] = Json::Value(Json::arrayValue);
    for (const Collection &c : declaration.collections) {
        Json::Value item = c.source;
        if (c.retired)
            item["retired"] = true;
        else
            item.removeMember("retired");
        Json::Value &fields = item["fields"] = Json::Value(Json::arrayValue);
        for (const Field &f : c.fields)
            fields.append(field_document(f));
        list.append(item);
    }
    return out;
}

} // namespace cms::content
