// The content declaration (doc/content.md): collections and their fields, read from JSON and
// checked against every rule that needs no database. Pure: no SQL, no HTTP.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <json/json.h>

namespace cms::content {

enum class Type {
    string,
    text,
    integer,
    decimal,
    boolean,
    date,
    datetime,
    enumeration,
    email,
    url,
    relation,
    file
};

// The type's name in a declaration ("enum" for enumeration), and the type of a name (nullopt
// for an unknown one).
const char *type_name(Type type);
std::optional<Type> type_of(const std::string &name);

// Who may run an operation of a collection: anyone, any logged-in user, the root group, or a
// holder of a permission of the collection's module (its label). own: only on the rows the
// caller created, except for the root group and holders of permission (when one is named).
struct Rule {
    enum class Level { everyone, login, admin, permission } level = Level::admin;
    std::string permission;
    bool own = false;
};

enum class Operation { list, view, create, update, remove, restore };
constexpr int k_operations = 6;
const char *operation_name(Operation op);

// The texts of a field's validation failures, when the declaration gives them (else generated
// from the field's label by the message table).
struct FieldTexts {
    std::string required, invalid, length, range;
};

struct Field {
    std::string id, name, label;
    Type type = Type::string;
    bool required = false, nullable = true, unique = false, filter = false, sort = false,
         search = false, hidden = false;
    std::optional<Json::Value> default_value; // as declared, checked against the type
    // string, text, url: characters (email: 254 at most); integer, decimal: the value as text.
    std::optional<int64_t> min_length, max_length;
    std::optional<std::string> min_value, max_value;
    int precision = 10, scale = 0;   // decimal
    std::vector<std::string> values; // enum
    std::string target;              // relation: a collection id, or "user"
    FieldTexts texts;
    bool retired = false; // removed from the file: kept in the database, not served
    Json::Value source;   // the field as declared, for the applied declaration
};

struct Collection {
    std::string id, name, label;
    std::vector<Field> fields; // retired ones included
    Rule access[k_operations];
    bool retired = false;
    Json::Value source;

    const Rule &rule(Operation op) const { return access[static_cast<int>(op)]; }
    // The live field named name (nullptr when none, or retired).
    const Field *field(const std::string &name) const;
    // The table of its rows, content_<id>: named by the id, so that a rename changes nothing
    // stored.
    std::string table() const;
};

struct Declaration {
    std::vector<Collection> collections; // retired ones included
    // The live collection named name (nullptr when none).
    const Collection *collection(const std::string &name) const;
    const Collection *by_id(const std::string &id) const;
};

// The limits a declaration is checked against (configuration keys of the same names), and what
// the service's fixed routes hold already: the names under /v1/ (books) and the permission
// modules (图书, 日志), which no collection may take.
struct Limits {
    int64_t max_collections = 100;
    int64_t max_fields = 64;
    std::vector<std::string> fixed_names;
    std::vector<std::string> fixed_modules;
};

// One broken rule: where (a JSON pointer into the declaration) and what.
struct Problem {
    std::string pointer;
    std::string rule;
};

// Reads a declaration document. Returns what it could read; problems gets one entry per
// broken rule (the declaration is usable only when it stays empty). Retired marks are kept
// (an applied declaration holds them; a file that has them is refused by check_file).
// allow_retired: an applied declaration (a file may not say what is retired).
Declaration read(const Json::Value &document, const Limits &limits, bool allow_retired,
                 std::vector<Problem> &problems);

// Parses text as JSON strictly (duplicate keys, trailing text and comments refused); a failure
// is one problem at "" naming the parser's complaint.
std::optional<Json::Value> parse(const std::string &text, std::vector<Problem> &problems);

// The problems as lines "POINTER: RULE", one each, without a last newline.
std::string describe(const std::vector<Problem> &problems);

// The identifier rule: 1 to 48 of a-z, 0-9 and _, starting with a letter, no MariaDB reserved
// word and no name of ours (lin_*, cms_*, content_*).
bool identifier(const std::string &name);

// name in backquotes, for SQL: safe for a name that passed identifier() (a collection's table, a
// field's column), which no checked declaration lacks.
std::string quoted(const std::string &name);

} // namespace cms::content
