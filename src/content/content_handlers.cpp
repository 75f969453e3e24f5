// The handlers of declared collections: the body checked field by field against the
// declaration (every problem in one 400/10030), the access rules' own rows, and the answers of
// doc/content.md. One handler per operation serves every collection.
#include "content/content_handlers.h"

#include "base/config.h"
#include "base/errors.h"
#include "content/catalog.h"
#include "content/collection_store.h"
#include "content/query.h"
#include "db/db.h"
#include "db/permission_store.h"
#include "http/context.h"
#include "http/handler_util.h"
#include "http/request.h"
#include "http/response.h"
#include "http/router.h"
#include "http/validate.h"

namespace cms {

using content::Assignments;
using content::Collection;
using content::CollectionStore;
using content::Fault;
using content::Field;
using content::Operation;
using content::Row;
using content::Rows;
using content::Rule;
using content::Type;

namespace {

const content::Mount &mount(const Ctx &ctx) {
    return *static_cast<const content::Mount *>(ctx.route->data);
}

std::vector<std::pair<std::string, std::string>> label_args(const Collection &c) {
    return {{"label", c.label}};
}

ApiError not_found(const Collection &c) {
    ApiError error(404, Code::content_not_found);
    error.args = label_args(c);
    return error;
}

// The caller whose rows an operation is narrowed to, under an own rule; nullopt when it sees
// every row: no own rule, the root group, or a holder of the rule's permission.
std::optional<int64_t> own_only(Operation op, const Collection &c, Ctx &ctx) {
    const Rule &rule = c.rule(op);
    if (!rule.own || !ctx.user || ctx.user->admin)
        return std::nullopt;
    if (rule.level == Rule::Level::permission &&
        PermissionStore(ctx.db).user_has(ctx.user->id, c.label.c_str(), rule.permission.c_str()))
        return std::nullopt;
    return ctx.user->id;
}

// fields: answered_fields(collection), made once for a page.
Json::Value row_json(const std::vector<const Field *> &fields, const Row &row,
                     const Config &config) {
    Json::Value out(Json::objectValue);
    out["id"] = static_cast<Json::Int64>(row.id);
    for (size_t i = 0; i < fields.size(); ++i) {
        const content::Cell &cell = row.cells[i];
        if (fields[i]->type == Type::file)
            out[fields[i]->name] = cell.null ? Json::Value(Json::nullValue)
                                             : Json::Value(config.file_public_url + cell.text);
        else
            out[fields[i]->name] = content::answer(*fields[i], cell.null, cell.integer, cell.text);
    }
    Field time;
    time.type = Type::datetime;
    out["create_time"] = content::answer(time, false, 0, row.create_time);
    out["update_time"] = content::answer(time, false, 0, row.update_time);
    return out;
}

// The problem of a member that fault refused, with the field's own text when it declares one.
FieldProblem problem(const Field &f, Fault fault) {
    FieldProblem p{f.name, FieldText::content_required, {{"label", f.label}}};
    auto bound = [&](const std::optional<int64_t> &n) { return std::to_string(*n); };
    switch (fault) {
    case Fault::required:
        p.literal = f.texts.required;
        return p;
    case Fault::length:
        p.literal = f.texts.length;
        p.text = f.min_length && f.max_length ? FieldText::content_length
                 : f.min_length               ? FieldText::content_min_length
                                              : FieldText::content_max_length;
        if (f.min_length)
            p.args.emplace_back("min", bound(f.min_length));
        if (f.max_length)
            p.args.emplace_back("max", bound(f.max_length));
        return p;
    case Fault::range:
        p.literal = f.texts.range;
        p.text = f.min_value && f.max_value ? FieldText::content_range
                 : f.min_value              ? FieldText::content_min
                 : f.max_value              ? FieldText::content_max
                 : f.type == Type::decimal  ? FieldText::content_decimal_digits
                                            : FieldText::content_integer;
        if (f.min_value)
            p.args.emplace_back("min", *f.min_value);
        if (f.max_value)
            p.args.emplace_back("max", *f.max_value);
        return p;
    case Fault::invalid:
    case Fault::none:
        break;
    }
    p.literal = f.texts.invalid;
    switch (f.type) {
    case Type::integer:
        p.text = FieldText::content_integer;
        break;
    case Type::decimal:
        p.text = FieldText::content_decimal;
        break;
    case Type::boolean:
        p.text = FieldText::content_boolean;
        break;
    case Type::date:
        p.text = FieldText::content_date;
        break;
    case Type::datetime:
        p.text = FieldText::content_datetime;
        break;
    case Type::enumeration: {
        p.text = FieldText::content_enum;
        std::string values;
        for (const std::string &v : f.values)
            values += (values.empty() ? "" : ", ") + v;
        p.args.emplace_back("values", values);
        break;
    }
    case Type::email:
        p.text = FieldText::content_email;
        break;
    case Type::url:
        p.text = FieldText::content_url;
        break;
    case Type::relation:
        p.text = FieldText::content_relation;
        p.args.emplace_back("target", f.target);
        break;
    case Type::file:
        p.text = FieldText::content_file;
        break;
    default:
        p.text = FieldText::content_text;
        break;
    }
    return p;
}

// The value of one member, its relation or file checked against live rows.
// source: the text member was parsed from (the body), empty for a declared default.
void assign(const Field &f, const Json::Value &member, std::string_view source, Ctx &ctx,
            Assignments &out, validate::Problems &problems) {
    content::Value value;
    Fault fault = content::convert(f, member, source, value);
    if (fault == Fault::none && value.kind == content::Value::Kind::null && !f.nullable)
        fault = Fault::required;
    if (fault == Fault::none && value.kind == content::Value::Kind::integer) {
        const content::Declaration &decl = *mount(ctx).declaration;
        if ((f.type == Type::relation &&
             !CollectionStore::target_exists(
                 ctx.db, f.target == "user" ? nullptr : decl.by_id(f.target), value.integer)) ||
            (f.type == Type::file && !CollectionStore::file_exists(ctx.db, value.integer)))
            fault = Fault::invalid;
    }
    if (fault != Fault::none)
        problems.add(problem(f, fault));
    else
        out.emplace_back(&f, std::move(value));
}

// The values of a create (every field: a missing one takes its default, or is required) or
// of an update (the members sent), in one 400/10030 with every problem.
Assignments values(const Collection &c, bool create, const Request &req, Ctx &ctx) {
    Json::Value body = parse_json_body(req, ctx);
    validate::Problems problems;
    Assignments out;
    for (const Field &f : c.fields) {
        if (f.retired)
            continue;
        if (body.isMember(f.name))
            assign(f, body[f.name], req.body, ctx, out, problems);
        else if (create && f.default_value)
            assign(f, *f.default_value, {}, ctx, out, problems);
        else if (create && f.required)
            problems.add(problem(f, Fault::required));
    }
    problems.check();
    return out;
}

// 409/10405 naming the field whose unique value is taken.
ApiError taken_error(const Collection &c, const std::string &field_id) {
    std::vector<FieldProblem> fields;
    for (const Field &f : c.fields)
        if (f.id == field_id)
            fields.push_back({f.name, FieldText::content_taken, {{"label", f.label}}});
    ApiError error = fields.empty() ? ApiError(409, Code::content_taken)
                                    : ApiError(409, Code::content_taken, fields);
    error.args = label_args(c);
    return error;
}

Json::Value envelope(Code code, const Collection &c, const Request &req, const Ctx &ctx) {
    return make_envelope(code, with_args(ctx.messages.text(code), label_args(c)), req.line());
}

Response done(int status, Code code, const Collection &c, const Request &req, const Ctx &ctx) {
    return Response::json(status, envelope(code, c, req, ctx));
}

// The live row of the path's id that the caller may run op on: 404 when there is none, 403
// when an own rule keeps it from the caller.
Row writable_row(Operation op, Rows rows, const Request &req, Ctx &ctx) {
    const Collection &c = *mount(ctx).collection;
    int64_t id = validate::path_id(req.params.at(0));
    std::optional<Row> row = CollectionStore(ctx.db, c).find(id, rows);
    if (!row)
        throw not_found(c);
    std::optional<int64_t> owner = own_only(op, c, ctx);
    if (owner && row->owner != owner)
        throw ApiError(403, Code::permission_denied);
    return *row;
}

Response page(Operation op, Rows rows, const Request &req, Ctx &ctx) {
    const Collection &c = *mount(ctx).collection;
    validate::Page page = validate::page_query(req);
    content::QueryLimits limits;
    limits.max_conditions = ctx.config.content_max_conditions;
    limits.max_sort = ctx.config.content_max_sort;
    std::vector<content::QueryProblem> faults;
    content::Query query = content::read_query(c, req.query_pairs(), limits, faults);
    if (!faults.empty()) {
        validate::Problems problems;
        for (const content::QueryProblem &f : faults) {
            static const FieldText k_texts[] = {FieldText::query_unknown, FieldText::query_value,
                                                FieldText::query_not_allowed,
                                                FieldText::query_too_many};
            problems.add(f.parameter, k_texts[static_cast<int>(f.fault)]);
        }
        problems.check();
    }
    int64_t total = 0;
    std::vector<Row> found = CollectionStore(ctx.db, c).list(query, own_only(op, c, ctx), rows,
                                                             page.page, page.count, total);
    Json::Value items(Json::arrayValue);
    std::vector<const Field *> fields = content::answered_fields(c);
    for (const Row &row : found)
        items.append(row_json(fields, row, ctx.config));
    return Response::json(200, page_json(items, total, page));
}

} // namespace

Response handle_content_list(const Request &req, Ctx &ctx) {
    return page(Operation::list, Rows::live, req, ctx);
}

Response handle_content_trash(const Request &req, Ctx &ctx) {
    return page(Operation::restore, Rows::deleted, req, ctx);
}

Response handle_content_get(const Request &req, Ctx &ctx) {
    Row row = writable_row(Operation::view, Rows::live, req, ctx);
    return Response::json(
        200, row_json(content::answered_fields(*mount(ctx).collection), row, ctx.config));
}

Response handle_content_create(const Request &req, Ctx &ctx) {
    const Collection &c = *mount(ctx).collection;
    Assignments fields = values(c, true, req, ctx);
    std::string taken;
    std::optional<int64_t> owner = ctx.user ? std::optional(ctx.user->id) : std::nullopt;
    std::optional<int64_t> id = CollectionStore(ctx.db, c).insert(fields, owner, taken);
    if (!id)
        throw taken_error(c, taken);
    Json::Value body = envelope(Code::content_created, c, req, ctx);
    body["id"] = static_cast<Json::Int64>(*id);
    Response res = Response::json(201, body);
    // Relative to the request's own URL, so that a mount prefix is kept (RFC 3986, 5.2).
    res.header("Location", c.name + "/" + std::to_string(*id));
    return res;
}

Response handle_content_update(const Request &req, Ctx &ctx) {
    const Collection &c = *mount(ctx).collection;
    Row row = writable_row(Operation::update, Rows::live, req, ctx);
    Assignments fields = values(c, false, req, ctx);
    std::string taken;
    content::Written written = CollectionStore(ctx.db, c).update(row.id, fields, taken);
    if (written == content::Written::missing)
        throw not_found(c);
    if (written == content::Written::taken)
        throw taken_error(c, taken);
    return done(200, Code::content_updated, c, req, ctx);
}

Response handle_content_delete(const Request &req, Ctx &ctx) {
    const Collection &c = *mount(ctx).collection;
    Row row = writable_row(Operation::remove, Rows::live, req, ctx);
    if (!CollectionStore(ctx.db, c).remove(row.id))
        throw not_found(c);
    return done(200, Code::content_deleted, c, req, ctx);
}

Response handle_content_restore(const Request &req, Ctx &ctx) {
    const Collection &c = *mount(ctx).collection;
    Row row = writable_row(Operation::restore, Rows::deleted, req, ctx);
    std::string taken;
    content::Written written = CollectionStore(ctx.db, c).restore(row.id, taken);
    if (written == content::Written::missing)
        throw not_found(c);
    if (written == content::Written::taken)
        throw taken_error(c, taken);
    return done(200, Code::content_restored, c, req, ctx);
}

Response handle_content_openapi(const Request &, Ctx &ctx) {
    return Response::json_text(200,
                               static_cast<const content::Catalog *>(ctx.route->data)->openapi());
}

Response handle_content_unknown(const Request &, Ctx &ctx) {
    // Connecting reads the applied declaration: the thread serves it from its next request on.
    ctx.db.ensure_connected();
    throw ApiError(503, Code::db_unavailable).header("Retry-After", "1");
}

} // namespace cms
