// Reading and checking a content declaration: every rule that needs no database, each broken one
// reported with the JSON pointer of what broke it (doc/content.md, "Checking a declaration").
#include "content/declaration.h"

#include <algorithm>
#include <cctype>
#include <memory>
#include <set>
#include <sstream>

#include "base/utf8.h"
#include "content/value.h"

namespace cms::content {

namespace {

constexpr size_t k_max_identifier = 48; // content_<id> and the index names stay within 64
constexpr size_t k_max_label = 50;      // lin_permission.module
constexpr size_t k_max_permission = 60; // lin_permission.name
constexpr int64_t k_max_string = 16383; // varchar of utf8mb4
// 3072 bytes of an InnoDB index key, 4 bytes a character, and a unique key's live flag.
constexpr int64_t k_max_indexed = 767;
constexpr int64_t k_max_text = 4194303; // mediumtext of utf8mb4
constexpr int64_t k_default_string = 255;
constexpr int64_t k_default_text = 65535;
constexpr int64_t k_email_max = 254;
constexpr int64_t k_url_max = 2000;
constexpr size_t k_max_values = 100;
constexpr size_t k_max_value_length = 64;
constexpr int k_max_depth = 64; // of a declaration's JSON: its own is 6 deep

// Columns every content table has: no field may take their names.
const char *const k_meta_columns[] = {"id",          "create_user_id", "create_time",
                                      "update_time", "delete_time",    "live"};

// MariaDB's reserved words (the server's sql/lex.h, those that need quoting), lower case.
const char *const k_reserved[] = {
    "accessible",
    "add",
    "all",
    "alter",
    "analyze",
    "and",
    "as",
    "asc",
    "asensitive",
    "before",
    "between",
    "bigint",
    "binary",
    "blob",
    "both",
    "by",
    "call",
    "cascade",
    "case",
    "change",
    "char",
    "character",
    "check",
    "collate",
    "column",
    "condition",
    "constraint",
    "continue",
    "convert",
    "create",
    "cross",
    "current_date",
    "current_role",
    "current_time",
    "current_timestamp",
    "current_user",
    "cursor",
    "database",
    "databases",
    "day_hour",
    "day_microsecond",
    "day_minute",
    "day_second",
    "dec",
    "decimal",
    "declare",
    "default",
    "delayed",
    "delete",
    "delete_domain_id",
    "desc",
    "describe",
    "deterministic",
    "distinct",
    "distinctrow",
    "div",
    "do_domain_ids",
    "double",
    "drop",
    "dual",
    "each",
    "else",
    "elseif",
    "enclosed",
    "escaped",
    "except",
    "exists",
    "exit",
    "explain",
    "false",
    "fetch",
    "float",
    "float4",
    "float8",
    "for",
    "force",
    "foreign",
    "from",
    "fulltext",
    "general",
    "grant",
    "group",
    "having",
    "high_priority",
    "hour_microsecond",
    "hour_minute",
    "hour_second",
    "if",
    "ignore",
    "ignore_domain_ids",
    "ignore_server_ids",
    "in",
    "index",
    "infile",
    "inner",
    "inout",
    "insensitive",
    "insert",
    "int",
    "int1",
    "int2",
    "int3",
    "int4",
    "int8",
    "integer",
    "intersect",
    "interval",
    "into",
    "is",
    "iterate",
    "join",
    "key",
    "keys",
    "kill",
    "leading",
    "leave",
    "left",
    "like",
    "limit",
    "linear",
    "lines",
    "load",
    "localtime",
    "localtimestamp",
    "lock",
    "long",
    "longblob",
    "longtext",
    "loop",
    "low_priority",
    "master_heartbeat_period",
    "master_ssl_verify_server_cert",
    "match",
    "maxvalue",
    "mediumblob",
    "mediumint",
    "mediumtext",
    "middleint",
    "minute_microsecond",
    "minute_second",
    "mod",
    "modifies",
    "natural",
    "not",
    "no_write_to_binlog",
    "null",
    "numeric",
    "offset",
    "on",
    "optimize",
    "option",
    "optionally",
    "or",
    "order",
    "out",
    "outer",
    "outfile",
    "over",
    "page_checksum",
    "parse_vcol_expr",
    "partition",
    "position",
    "precision",
    "primary",
    "procedure",
    "purge",
    "range",
    "read",
    "reads",
    "read_write",
    "real",
    "recursive",
    "ref_system_id",
    "references",
    "regexp",
    "release",
    "rename",
    "repeat",
    "replace",
    "require",
    "resignal",
    "restrict",
    "return",
    "returning",
    "revoke",
    "right",
    "rlike",
    "rows",
    "row_number",
    "schema",
    "schemas",
    "second_microsecond",
    "select",
    "sensitive",
    "separator",
    "set",
    "show",
    "signal",
    "slow",
    "smallint",
    "spatial",
    "specific",
    "sql",
    "sqlexception",
    "sqlstate",
    "sqlwarning",
    "sql_big_result",
    "sql_calc_found_rows",
    "sql_small_result",
    "ssl",
    "starting",
    "stats_auto_recalc",
    "stats_persistent",
    "stats_sample_pages",
    "straight_join",
    "table",
    "terminated",
    "then",
    "tinyblob",
    "tinyint",
    "tinytext",
    "to",
    "trailing",
    "trigger",
    "true",
    "undo",
    "union",
    "unique",
    "unlock",
    "unsigned",
    "update",
    "usage",
    "use",
    "using",
    "utc_date",
    "utc_time",
    "utc_timestamp",
    "values",
    "varbinary",
    "varchar",
    "varcharacter",
    "varying",
    "when",
    "where",
    "while",
    "window",
    "with",
    "write",
    "xor",
    "year_month",
    "zerofill",
};

const char *const k_operation_names[k_operations] = {"list",   "view",   "create",
                                                     "update", "delete", "restore"};

struct TypeRow {
    Type type;
    const char *name;
    bool indexable; // unique, filter and sort
    bool searchable;
};

const TypeRow k_types[] = {
    {Type::string, "string", true, true},      {Type::text, "text", false, true},
    {Type::integer, "integer", true, false},   {Type::decimal, "decimal", true, false},
    {Type::boolean, "boolean", true, false},   {Type::date, "date", true, false},
    {Type::datetime, "datetime", true, false}, {Type::enumeration, "enum", true, false},
    {Type::email, "email", true, true},        {Type::url, "url", true, true},
    {Type::relation, "relation", true, false}, {Type::file, "file", false, false},
};

const TypeRow &row_of(Type type) {
    for (const TypeRow &row : k_types)
        if (row.type == type)
            return row;
    return k_types[0];
}

// The reader of one document: where it is, and the problems found so far.
class Reader {
  public:
    Reader(const Limits &limits, bool allow_retired, std::vector<Problem> &problems)
        : limits_(limits), allow_retired_(allow_retired), problems_(problems) {}

    Declaration document(const Json::Value &doc);

  private:
    void fail(const std::string &pointer, const std::string &rule) {
        problems_.push_back({pointer, rule});
    }
    // Refuses members of object not in allowed.
    void only(const Json::Value &object, const std::string &pointer,
              std::initializer_list<const char *> allowed);
    std::string name_member(const Json::Value &object, const std::string &pointer,
                            const char *member);
    bool flag(const Json::Value &object, const std::string &pointer, const char *member,
              bool fallback = false);
    std::optional<int64_t> count(const Json::Value &object, const std::string &pointer,
                                 const char *member, int64_t lo, int64_t hi);
    Collection collection(const Json::Value &c, const std::string &pointer);
    Field field(const Json::Value &f, const std::string &pointer);
    void bounds(Field &field, const Json::Value &f, const std::string &pointer);
    void texts(Field &field, const Json::Value &f, const std::string &pointer);
    Rule rule(const Json::Value &r, const std::string &pointer, Operation op);
    void cross_check(Declaration &decl);

    const Limits &limits_;
    bool allow_retired_;
    std::vector<Problem> &problems_;
};

void Reader::only(const Json::Value &object, const std::string &pointer,
                  std::initializer_list<const char *> allowed) {
    for (const std::string &name : object.getMemberNames())
        if (std::none_of(allowed.begin(), allowed.end(), [&](const char *a) { return name == a; }))
            fail(pointer + "/" + name, "is not a member this version knows");
}

std::string Reader::name_member(const Json::Value &object, const std::string &pointer,
                                const char *member) {
    const Json::Value &v = object[member];
    if (!v.isString() || !identifier(v.asString())) {
        fail(pointer + "/" + member, "must be an identifier: 1 to 48 of a-z, 0-9 and _, starting "
                                     "with a letter, not a MariaDB reserved word, not starting "
                                     "with lin_, cms_ or content_");
        return v.isString() ? v.asString() : "";
    }
    return v.asString();
}

bool Reader::flag(const Json::Value &object, const std::string &pointer, const char *member,
                  bool fallback) {
    const Json::Value &v = object[member];
    if (v.isNull())
        return fallback;
    if (!v.isBool()) {
        fail(pointer + "/" + member, "must be true or false");
        return fallback;
    }
    return v.asBool();
}

std::optional<int64_t> Reader::count(const Json::Value &object, const std::string &pointer,
                                     const char *member, int64_t lo, int64_t hi) {
    const Json::Value &v = object[member];
    if (v.isNull())
        return std::nullopt;
    if (!v.isInt64() || v.asInt64() < lo || v.asInt64() > hi) {
        fail(pointer + "/" + member,
             "must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
        return std::nullopt;
    }
    return v.asInt64();
}

Declaration Reader::document(const Json::Value &doc) {
    Declaration decl;
    if (!doc.isObject()) {
        fail("", "must be an object with a member collections");
        return decl;
    }
    only(doc, "", {"collections"});
    const Json::Value &list = doc["collections"];
    if (!list.isArray()) {
        fail("/collections", "must be an array");
        return decl;
    }
    if (static_cast<int64_t>(list.size()) > limits_.max_collections)
        fail("/collections", "holds more than content_max_collections (" +
                                 std::to_string(limits_.max_collections) + ") collections");
    for (Json::ArrayIndex i = 0; i < list.size(); ++i)
        decl.collections.push_back(collection(list[i], "/collections/" + std::to_string(i)));
    cross_check(decl);
    return decl;
}

Collection Reader::collection(const Json::Value &c, const std::string &pointer) {
    Collection out;
    if (!c.isObject()) {
        fail(pointer, "must be an object");
        return out;
    }
    only(c, pointer, {"id", "name", "label", "fields", "access", "retired"});
    out.source = c;
    out.id = name_member(c, pointer, "id");
    out.name = name_member(c, pointer, "name");
    const Json::Value &label = c["label"];
    std::optional<size_t> label_length =
        label.isString() ? utf8::length(label.asString()) : std::nullopt;
    if (!label_length || *label_length == 0 || *label_length > k_max_label ||
        !utf8::valid_text(label.asString()))
        fail(pointer + "/label", "must be a text of 1 to 50 characters");
    else
        out.label = label.asString();
    out.retired = flag(c, pointer, "retired");
    if (out.retired && !allow_retired_)
        fail(pointer + "/retired", "is set by --setup-db, never declared: remove the "
                                   "collection to retire it");
    const Json::Value &fields = c["fields"];
    if (!fields.isArray() || fields.empty()) {
        fail(pointer + "/fields", "must be an array of at least one field");
    } else {
        if (static_cast<int64_t>(fields.size()) > limits_.max_fields)
            fail(pointer + "/fields", "holds more than content_max_fields (" +
                                          std::to_string(limits_.max_fields) + ") fields");
        for (Json::ArrayIndex i = 0; i < fields.size(); ++i)
            out.fields.push_back(field(fields[i], pointer + "/fields/" + std::to_string(i)));
    }
    const Json::Value &access = c["access"];
    if (!access.isNull() && !access.isObject()) {
        fail(pointer + "/access", "must be an object");
    } else if (access.isObject()) {
        only(access, pointer + "/access",
             {"list", "view", "create", "update", "delete", "restore"});
        for (int op = 0; op < k_operations; ++op)
            if (access.isMember(k_operation_names[op]))
                out.access[op] =
                    rule(access[k_operation_names[op]],
                         pointer + "/access/" + k_operation_names[op], static_cast<Operation>(op));
    }
    return out;
}

Rule Reader::rule(const Json::Value &r, const std::string &pointer, Operation op) {
    Rule out;
    auto level = [&](const std::string &name, const std::string &at) {
        if (name == "everyone")
            out.level = Rule::Level::everyone;
        else if (name == "login")
            out.level = Rule::Level::login;
        else if (name == "admin")
            out.level = Rule::Level::admin;
        else
            fail(at, "must be everyone, login or admin");
    };
    if (r.isString()) {
        level(r.asString(), pointer);
        return out;
    }
    if (!r.isObject()) {
        fail(pointer, "must be everyone, login, admin, {\"permission\": NAME} or "
                      "{\"level\": LEVEL, \"own\": true}");
        return out;
    }
    only(r, pointer, {"permission", "level", "own"});
    if (r.isMember("permission") == r.isMember("level")) {
        fail(pointer, "must name either a permission or a level");
        return out;
    }
    if (r.isMember("level")) {
        level(r["level"].isString() ? r["level"].asString() : "", pointer + "/level");
    } else {
        const Json::Value &p = r["permission"];
        std::optional<size_t> n = p.isString() ? utf8::length(p.asString()) : std::nullopt;
        if (!n || *n == 0 || *n > k_max_permission || !utf8::valid_text(p.asString()))
            fail(pointer + "/permission", "must be a text of 1 to 60 characters");
        else
            out.permission = p.asString();
        out.level = Rule::Level::permission;
    }
    out.own = flag(r, pointer, "own");
    if (out.own && (op == Operation::create || out.level == Rule::Level::everyone ||
                    out.level == Rule::Level::admin))
        fail(pointer + "/own", "applies to list, view, update, delete and restore, with the "
                               "level login or a permission");
    return out;
}

Field Reader::field(const Json::Value &f, const std::string &pointer) {
    Field out;
    if (!f.isObject()) {
        fail(pointer, "must be an object");
        return out;
    }
    out.source = f;
    out.id = name_member(f, pointer, "id");
    out.name = name_member(f, pointer, "name");
    for (const char *meta : k_meta_columns) {
        if (out.id == meta)
            fail(pointer + "/id", std::string("is a column of every collection: ") + meta);
        if (out.name == meta)
            fail(pointer + "/name", std::string("is a member of every answer: ") + meta);
    }
    const Json::Value &type = f["type"];
    std::optional<Type> t = type.isString() ? type_of(type.asString()) : std::nullopt;
    if (!t) {
        fail(pointer + "/type", "must be one of string, text, integer, decimal, boolean, date, "
                                "datetime, enum, email, url, relation, file");
        return out;
    }
    out.type = *t;
    const Json::Value &label = f["label"];
    if (label.isNull()) {
        out.label = out.name;
    } else if (!label.isString() || !utf8::valid_text(label.asString()) ||
               utf8::length(label.asString()).value_or(0) == 0 ||
               utf8::length(label.asString()).value_or(0) > k_max_label) {
        fail(pointer + "/label", "must be a text of 1 to 50 characters");
    } else {
        out.label = label.asString();
    }
    std::vector<const char *> allowed = {"id",       "name",    "label",  "type",   "required",
                                         "nullable", "default", "unique", "filter", "sort",
                                         "search",   "hidden",  "texts",  "retired"};
    switch (out.type) {
    case Type::string:
    case Type::text:
    case Type::url:
    case Type::integer:
    case Type::decimal:
        allowed.insert(allowed.end(), {"min", "max"});
        break;
    default:
        break;
    }
    if (out.type == Type::decimal)
        allowed.insert(allowed.end(), {"precision", "scale"});
    if (out.type == Type::enumeration)
        allowed.push_back("values");
    if (out.type == Type::relation)
        allowed.push_back("target");
    for (const std::string &name : f.getMemberNames())
        if (std::none_of(allowed.begin(), allowed.end(), [&](const char *a) { return name == a; }))
            fail(pointer + "/" + name,
                 std::string("is not an option of a field of type ") + type_name(out.type));
    out.required = flag(f, pointer, "required");
    out.nullable = flag(f, pointer, "nullable", true);
    out.unique = flag(f, pointer, "unique");
    out.filter = flag(f, pointer, "filter");
    out.sort = flag(f, pointer, "sort");
    out.search = flag(f, pointer, "search");
    out.hidden = flag(f, pointer, "hidden");
    out.retired = flag(f, pointer, "retired");
    if (out.retired && !allow_retired_)
        fail(pointer + "/retired", "is set by --setup-db, never declared: remove the field to "
                                   "retire it");
    if (out.required)
        out.nullable = false;
    const TypeRow &row = row_of(out.type);
    for (const char *option : {"unique", "filter", "sort"})
        if (flag(f, pointer, option) && !row.indexable)
            fail(pointer + "/" + option,
                 std::string("is not for a field of type ") + type_name(out.type));
    if (out.search && !row.searchable)
        fail(pointer + "/search", std::string("is not for a field of type ") + type_name(out.type));
    // A hidden value that a query could test would be read one guess at a time.
    for (const char *option : {"filter", "sort", "search"})
        if (out.hidden && flag(f, pointer, option))
            fail(pointer + "/" + option, "is not for a hidden field");
    if (out.required && f.isMember("nullable") && flag(f, pointer, "nullable", true))
        fail(pointer + "/nullable", "true contradicts required");
    bounds(out, f, pointer);
    if ((out.unique || out.filter || out.sort) && out.max_length && *out.max_length > k_max_indexed)
        fail(pointer + "/max", "must be at most 767 for a unique, filter or sort field (an "
                               "index key of utf8mb4 holds 3072 bytes)");
    if (out.type == Type::enumeration) {
        const Json::Value &values = f["values"];
        std::set<std::string> seen;
        if (!values.isArray() || values.empty() || values.size() > k_max_values) {
            fail(pointer + "/values", "must be an array of 1 to 100 texts");
        } else {
            for (Json::ArrayIndex i = 0; i < values.size(); ++i) {
                const Json::Value &v = values[i];
                size_t n = v.isString() ? utf8::length(v.asString()).value_or(0) : 0;
                if (n == 0 || n > k_max_value_length || !utf8::valid_text(v.asString()))
                    fail(pointer + "/values/" + std::to_string(i),
                         "must be a text of 1 to 64 characters");
                else if (!seen.insert(v.asString()).second)
                    fail(pointer + "/values/" + std::to_string(i), "is given twice");
                else
                    out.values.push_back(v.asString());
            }
            out.max_length = static_cast<int64_t>(k_max_value_length);
        }
    }
    if (out.type == Type::relation) {
        const Json::Value &target = f["target"];
        if (!target.isString() || (target.asString() != "user" && !identifier(target.asString())))
            fail(pointer + "/target", "must be the id of a collection, or user");
        else
            out.target = target.asString();
    }
    texts(out, f, pointer);
    if (f.isMember("default")) {
        const Json::Value &d = f["default"];
        Value ignored;
        if (out.type == Type::relation || out.type == Type::file)
            fail(pointer + "/default",
                 std::string("is not for a field of type ") + type_name(out.type));
        else if (d.isNull() || convert(out, d, {}, ignored) != Fault::none)
            fail(pointer + "/default", "is not a valid value of this field");
        else
            out.default_value = d;
    }
    if (!out.nullable && !out.required && !out.default_value)
        fail(pointer + "/nullable", "false needs required or a default: a row created without "
                                    "the field would have no value");
    return out;
}

void Reader::bounds(Field &out, const Json::Value &f, const std::string &pointer) {
    switch (out.type) {
    case Type::string:
        out.max_length = count(f, pointer, "max", 1, k_max_string).value_or(k_default_string);
        out.min_length = count(f, pointer, "min", 0, k_max_string);
        break;
    case Type::text:
        out.max_length = count(f, pointer, "max", 1, k_max_text).value_or(k_default_text);
        out.min_length = count(f, pointer, "min", 0, k_max_text);
        break;
    case Type::url:
        out.max_length = count(f, pointer, "max", 1, k_url_max).value_or(k_url_max);
        out.min_length = count(f, pointer, "min", 0, k_url_max);
        break;
    case Type::email:
        out.max_length = k_email_max;
        break;
    case Type::integer:
        for (const char *member : {"min", "max"}) {
            const Json::Value &v = f[member];
            if (v.isNull())
                continue;
            if (!v.isInt64())
                fail(pointer + "/" + member, "must be an integer of 64 bits");
            else
                (member[1] == 'i' ? out.min_value : out.max_value) = std::to_string(v.asInt64());
        }
        break;
    case Type::decimal: {
        out.precision = static_cast<int>(count(f, pointer, "precision", 1, 65).value_or(10));
        out.scale = static_cast<int>(count(f, pointer, "scale", 0, 30).value_or(0));
        if (out.scale > out.precision)
            fail(pointer + "/scale", "must be at most the precision");
        for (const char *member : {"min", "max"}) {
            const Json::Value &v = f[member];
            if (v.isNull())
                continue;
            std::optional<std::string> text = v.isString()    ? std::optional(v.asString())
                                              : v.isNumeric() ? number_text(v, {})
                                                              : std::nullopt;
            std::optional<std::string> d =
                text ? decimal(*text, out.precision, out.scale) : std::nullopt;
            if (!d)
                fail(pointer + "/" + member, "must be a decimal that the field's precision and "
                                             "scale hold, best written as a string");
            else
                (member[1] == 'i' ? out.min_value : out.max_value) = *d;
        }
        break;
    }
    default:
        break;
    }
    if (out.min_length && out.max_length && *out.min_length > *out.max_length)
        fail(pointer + "/min", "must be at most max");
    if (out.min_value && out.max_value && compare_decimal(*out.min_value, *out.max_value) > 0)
        fail(pointer + "/min", "must be at most max");
}

void Reader::texts(Field &out, const Json::Value &f, const std::string &pointer) {
    const Json::Value &t = f["texts"];
    if (t.isNull())
        return;
    if (!t.isObject()) {
        fail(pointer + "/texts", "must be an object");
        return;
    }
    only(t, pointer + "/texts", {"required", "invalid", "length", "range"});
    std::pair<const char *, std::string *> members[] = {{"required", &out.texts.required},
                                                        {"invalid", &out.texts.invalid},
                                                        {"length", &out.texts.length},
                                                        {"range", &out.texts.range}};
    for (auto &[name, slot] : members) {
        const Json::Value &v = t[name];
        if (v.isNull())
            continue;
        if (!v.isString() || v.asString().empty() || !utf8::valid_text(v.asString()) ||
            utf8::length(v.asString()).value_or(0) > 200)
            fail(pointer + "/texts/" + name, "must be a text of 1 to 200 characters");
        else
            *slot = v.asString();
    }
}

void Reader::cross_check(Declaration &decl) {
    std::set<std::string> ids, names, permissions;
    for (size_t i = 0; i < decl.collections.size(); ++i) {
        const Collection &c = decl.collections[i];
        std::string pointer = "/collections/" + std::to_string(i);
        if (!c.id.empty() && !ids.insert(c.id).second)
            fail(pointer + "/id", "is the id of an earlier collection");
        if (!c.retired && !c.name.empty() && !names.insert(c.name).second)
            fail(pointer + "/name", "is the name of an earlier collection");
        auto fixed = [](const std::vector<std::string> &list, const std::string &item) {
            return std::find(list.begin(), list.end(), item) != list.end();
        };
        if (!c.retired && fixed(limits_.fixed_names, c.name))
            fail(pointer + "/name",
                 "is a resource of the service's own routes (/v1/" + c.name + ")");
        if (fixed(limits_.fixed_modules, c.label))
            fail(pointer + "/label", "is the permission module of the service's own routes");
        std::set<std::string> field_ids, field_names;
        for (size_t j = 0; j < c.fields.size(); ++j) {
            const Field &f = c.fields[j];
            std::string at = pointer + "/fields/" + std::to_string(j);
            if (!f.id.empty() && !field_ids.insert(f.id).second)
                fail(at + "/id", "is the id of an earlier field");
            if (!f.retired && !f.name.empty() && !field_names.insert(f.name).second)
                fail(at + "/name", "is the name of an earlier field");
            if (f.type == Type::relation && !f.target.empty() && f.target != "user") {
                const Collection *target = decl.by_id(f.target);
                if (target == nullptr || (target->retired && !c.retired))
                    fail(at + "/target", "names no collection of this declaration");
            }
        }
        if (c.retired)
            continue;
        std::set<std::string> own_permissions;
        for (int op = 0; op < k_operations; ++op) {
            const Rule &r = c.access[op];
            if (r.level != Rule::Level::permission || r.permission.empty())
                continue;
            // One collection may name a permission for several operations; two collections
            // with one label (one module) may not share a name: a grant would give both.
            if (own_permissions.insert(r.permission).second &&
                !permissions.insert(c.label + "\n" + r.permission).second)
                fail(pointer + "/access/" + k_operation_names[op] + "/permission",
                     "is a permission of another collection with the label " + c.label);
        }
    }
}

} // namespace

const char *type_name(Type type) {
    return row_of(type).name;
}

std::optional<Type> type_of(const std::string &name) {
    for (const TypeRow &row : k_types)
        if (name == row.name)
            return row.type;
    return std::nullopt;
}

const char *operation_name(Operation op) {
    return k_operation_names[static_cast<int>(op)];
}

const Field *Collection::field(const std::string &field_name) const {
    for (const Field &f : fields)
        if (!f.retired && f.name == field_name)
            return &f;
    return nullptr;
}

std::string Collection::table() const {
    return "content_" + id;
}

const Collection *Declaration::collection(const std::string &collection_name) const {
    for (const Collection &c : collections)
        if (!c.retired && c.name == collection_name)
            return &c;
    return nullptr;
}

const Collection *Declaration::by_id(const std::string &collection_id) const {
    for (const Collection &c : collections)
        if (c.id == collection_id)
            return &c;
    return nullptr;
}

bool identifier(const std::string &name) {
    if (name.empty() || name.size() > k_max_identifier ||
        !std::islower(static_cast<unsigned char>(name[0])))
        return false;
    for (char c : name)
        if (!std::islower(static_cast<unsigned char>(c)) &&
            !std::isdigit(static_cast<unsigned char>(c)) && c != '_')
            return false;
    for (const char *prefix : {"lin_", "cms_", "content_"})
        if (name.rfind(prefix, 0) == 0)
            return false;
    return std::none_of(std::begin(k_reserved), std::end(k_reserved),
                        [&](const char *word) { return name == word; });
}

std::string quoted(const std::string &name) { return "`" + name + "`"; }

Declaration read(const Json::Value &document, const Limits &limits, bool allow_retired,
                 std::vector<Problem> &problems) {
    return Reader(limits, allow_retired, problems).document(document);
}

std::optional<Json::Value> parse(const std::string &text, std::vector<Problem> &problems) {
    Json::CharReaderBuilder builder;
    Json::CharReaderBuilder::strictMode(&builder.settings_);
    builder.settings_["stackLimit"] = k_max_depth;
    std::unique_ptr<Json::CharReader> reader(builder.newCharReader());
    Json::Value doc;
    std::string errors;
    if (!utf8::valid(text)) {
        problems.push_back({"", "is not UTF-8 text"});
        return std::nullopt;
    }
    bool parsed = false;
    try {
        parsed = reader->parse(text.data(), text.data() + text.size(), &doc, &errors);
    } catch (const Json::RuntimeError &) { // jsoncpp's answer to a document past stackLimit
        errors = "nested deeper than " + std::to_string(k_max_depth) + " levels";
    }
    if (!parsed) {
        std::string first = errors.substr(0, errors.find('\n', errors.find('\n') + 1));
        problems.push_back({"", "is not strict JSON: " + first});
        return std::nullopt;
    }
    return doc;
}

std::string describe(const std::vector<Problem> &problems) {
    std::string out;
    for (const Problem &p : problems)
        out += (out.empty() ? "" : "\n") + (p.pointer.empty() ? "(the document)" : p.pointer) +
               ": " + p.rule;
    return out;
}

} // namespace cms::content
