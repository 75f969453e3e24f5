// Reading a list's query: filter[FIELD]=V, filter[FIELD][OP]=V, sort=a,-b and q, each checked
// against the declaration, so that the store builds its statement from fields and values only.
#include "content/query.h"

#include <algorithm>
#include <cctype>

#include "base/utf8.h"

namespace cms::content {

namespace {

struct OpName {
    const char *name;
    Op op;
};

const OpName k_ops[] = {{"eq", Op::eq}, {"ne", Op::ne},   {"gt", Op::gt}, {"gte", Op::gte},
                        {"lt", Op::lt}, {"lte", Op::lte}, {"in", Op::in}};

// The id as a field of type relation, for filter[id] and sort=id: a positive integer.
const Field &id_field() {
    static const Field field = [] {
        Field f;
        f.id = f.name = f.label = "id";
        f.type = Type::relation;
        return f;
    }();
    return field;
}

// The field a query may name: the id or a live field of the collection.
const Field *named(const Collection &collection, const std::string &name) {
    return name == "id" ? &id_field() : collection.field(name);
}

// A query text as the JSON member the field's type takes, then converted. Bounds are not
// checked: a filter may ask for values that no row may hold.
bool query_value(const Field &field, const std::string &text, Value &out) {
    Json::Value member;
    switch (field.type) {
    case Type::integer: {
        if (text.empty() || text.size() > 20 ||
            !std::all_of(text.begin() + (text[0] == '-' ? 1 : 0), text.end(),
                         [](unsigned char c) { return std::isdigit(c); }) ||
            text == "-")
            return false;
        try {
            member = Json::Value(static_cast<Json::Int64>(std::stoll(text)));
        } catch (const std::out_of_range &) {
            return false;
        }
        break;
    }
    case Type::boolean:
        if (text != "true" && text != "false" && text != "1" && text != "0")
            return false;
        member = Json::Value(text == "true" || text == "1");
        break;
    default:
        member = Json::Value(text);
        break;
    }
    return convert(field, member, {}, out, false) == Fault::none && out.kind != Value::Kind::null;
}

// "filter[title]" → title, ""; "filter[views][gt]" → views, gt. False when name is not one.
bool filter_name(const std::string &name, std::string &field, std::string &op) {
    if (name.rfind("filter[", 0) != 0 || name.back() != ']')
        return false;
    size_t close = name.find(']', 7);
    field = name.substr(7, close - 7);
    if (close + 1 == name.size()) {
        op.clear();
        return !field.empty();
    }
    if (name[close + 1] != '[' || name.find(']', close + 2) != name.size() - 1)
        return false;
    op = name.substr(close + 2, name.size() - close - 3);
    return !field.empty() && !op.empty();
}

void read_filter(const Collection &collection, const std::string &param, const std::string &value,
                 const std::string &field_name, const std::string &op_name,
                 const QueryLimits &limits, Query &query, std::vector<QueryProblem> &problems) {
    const Field *field = named(collection, field_name);
    if (field == nullptr || field->hidden) {
        problems.push_back({param, QueryFault::unknown});
        return;
    }
    if (field != &id_field() && !field->filter) {
        problems.push_back({param, QueryFault::not_allowed});
        return;
    }
    Condition c;
    c.field = field;
    if (!op_name.empty()) {
        const OpName *op = std::find_if(std::begin(k_ops), std::end(k_ops),
                                        [&](const OpName &o) { return op_name == o.name; });
        if (op == std::end(k_ops)) {
            problems.push_back({param, QueryFault::unknown});
            return;
        }
        c.op = op->op;
    }
    std::vector<std::string> texts;
    if (c.op == Op::in) {
        size_t start = 0;
        while (true) {
            size_t comma = value.find(',', start);
            texts.push_back(value.substr(start, comma - start));
            if (comma == std::string::npos)
                break;
            start = comma + 1;
        }
        if (static_cast<int64_t>(texts.size()) > limits.max_in) {
            problems.push_back({param, QueryFault::too_many});
            return;
        }
    } else {
        texts.push_back(value);
    }
    for (const std::string &text : texts) {
        Value v;
        if (!query_value(*field, text, v)) {
            problems.push_back({param, QueryFault::value});
            return;
        }
        c.values.push_back(std::move(v));
    }
    if (field == &id_field())
        c.field = nullptr; // the id column itself
    query.conditions.push_back(std::move(c));
}

void read_sort(const Collection &collection, const std::string &value, const QueryLimits &limits,
               Query &query, std::vector<QueryProblem> &problems) {
    size_t start = 0;
    while (true) {
        size_t comma = value.find(',', start);
        std::string key = value.substr(start, comma - start);
        SortKey sort;
        sort.descending = !key.empty() && key[0] == '-';
        std::string name = sort.descending ? key.substr(1) : key;
        const Field *field = named(collection, name);
        if (field == nullptr || field->hidden) {
            problems.push_back({"sort", QueryFault::unknown});
            return;
        }
        if (field != &id_field() && !field->sort) {
            problems.push_back({"sort", QueryFault::not_allowed});
            return;
        }
        sort.field = field == &id_field() ? nullptr : field;
        query.sort.push_back(sort);
        if (static_cast<int64_t>(query.sort.size()) > limits.max_sort) {
            problems.push_back({"sort", QueryFault::too_many});
            return;
        }
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
}

} // namespace

Query read_query(const Collection &collection,
                 const std::vector<std::pair<std::string, std::string>> &params,
                 const QueryLimits &limits, std::vector<QueryProblem> &problems) {
    Query query;
    bool sorted = false, searched = false;
    for (const auto &[name, value] : params) {
        std::string field, op;
        if (name == "page" || name == "count") {
            continue;
        } else if (name == "sort" && !sorted) {
            sorted = true;
            read_sort(collection, value, limits, query, problems);
        } else if (name == "q" && !searched) {
            searched = true;
            bool searchable =
                std::any_of(collection.fields.begin(), collection.fields.end(),
                            [](const Field &f) { return f.search && !f.retired && !f.hidden; });
            std::optional<size_t> n = utf8::length(value);
            if (!searchable)
                problems.push_back({name, QueryFault::not_allowed});
            else if (!utf8::valid_text(value) || !n || static_cast<int64_t>(*n) > limits.max_q)
                problems.push_back({name, QueryFault::value});
            else
                query.q = value;
        } else if (filter_name(name, field, op)) {
            read_filter(collection, name, value, field, op, limits, query, problems);
            if (static_cast<int64_t>(query.conditions.size()) > limits.max_conditions) {
                problems.push_back({name, QueryFault::too_many});
                return query;
            }
        } else {
            problems.push_back({name, QueryFault::unknown});
        }
    }
    return query;
}

} // namespace cms::content
