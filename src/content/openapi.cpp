// Writing the collections' OpenAPI document. Each collection <name> gets the schemas
// content.<name>.row, .body and .page; every error of its routes is the envelope of doc/api.md.
#include "content/openapi.h"

#include "content/collection_store.h"

namespace cms::content {

namespace {

// The statuses every route of a collection may answer besides its success: a bad body or query,
// no or a bad token, a right missing, no such row, a taken unique value, too large or not JSON,
// the database down, and the generic failure.
const char *const k_error_statuses[] = {"400", "401", "403", "404", "409",
                                        "413", "415", "500", "503"};

Json::Value schema_ref(const std::string &name) {
    Json::Value out(Json::objectValue);
    out["$ref"] = "#/components/schemas/" + name;
    return out;
}

Json::Value typed(const char *type) {
    Json::Value out(Json::objectValue);
    out["type"] = type;
    return out;
}

// What a field is answered as (answer() of value.h); null too unless it is required.
Json::Value answer_schema(const Field &f) {
    Json::Value s(Json::objectValue);
    switch (f.type) {
    case Type::string:
    case Type::text:
    case Type::url:
    case Type::email:
        s = typed("string");
        if (f.max_length)
            s["maxLength"] = static_cast<Json::Int64>(*f.max_length);
        if (f.type == Type::email)
            s["format"] = "email";
        break;
    case Type::integer:
        s = typed("integer");
        if (f.min_value)
            s["minimum"] = static_cast<Json::Int64>(std::stoll(*f.min_value));
        if (f.max_value)
            s["maximum"] = static_cast<Json::Int64>(std::stoll(*f.max_value));
        break;
    case Type::decimal:
        s = typed("string");
        s["pattern"] = "^-?[0-9]+" +
                       (f.scale > 0 ? "\\.[0-9]{" + std::to_string(f.scale) + "}" : std::string()) +
                       "$";
        break;
    case Type::boolean:
        s = typed("boolean");
        break;
    case Type::date:
        s = typed("string");
        s["format"] = "date";
        s["pattern"] = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$";
        break;
    case Type::datetime:
        s = typed("string");
        s["format"] = "date-time";
        s["pattern"] = "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{3})?Z$";
        break;
    case Type::enumeration:
        s["enum"] = Json::Value(Json::arrayValue);
        for (const std::string &v : f.values)
            s["enum"].append(v);
        break;
    case Type::relation:
        s = typed("integer");
        s["minimum"] = 1;
        break;
    case Type::file:
        s = typed("string");
        s["description"] = "the URL of the uploaded file (POST /cms/file)";
        break;
    }
    if (f.nullable) {
        Json::Value either(Json::objectValue);
        either["oneOf"].append(s);
        either["oneOf"].append(typed("null"));
        return either;
    }
    return s;
}

// What a write takes for a field: the answer's form, a decimal also as a JSON number, a datetime
// with any offset, a relation or file as an id.
Json::Value body_schema(const Field &f) {
    Json::Value s = answer_schema(f);
    Json::Value &inner = s.isMember("oneOf") ? s["oneOf"][0] : s;
    if (f.type == Type::decimal) {
        inner = Json::Value(Json::objectValue);
        inner["type"].append("string");
        inner["type"].append("number");
    } else if (f.type == Type::datetime) {
        inner.removeMember("pattern");
    } else if (f.type == Type::file) {
        inner = typed("integer");
        inner["description"] = "the id of an uploaded file (POST /cms/file)";
    }
    if (!f.label.empty())
        s["title"] = f.label;
    return s;
}

Json::Value time_schema() {
    Json::Value s = typed("string");
    s["format"] = "date-time";
    return s;
}

Json::Value envelope_schema() {
    Json::Value s = typed("object");
    s["required"].append("code");
    s["required"].append("message");
    s["required"].append("request");
    s["properties"]["code"] = typed("integer");
    s["properties"]["message"]["type"].append("string");
    s["properties"]["message"]["type"].append("object");
    s["properties"]["request"] = typed("string");
    s["properties"]["id"] = typed("integer");
    s["additionalProperties"] = false;
    return s;
}

Json::Value json_response(const std::string &description, const Json::Value &schema) {
    Json::Value r(Json::objectValue);
    r["description"] = description;
    r["content"]["application/json"]["schema"] = schema;
    return r;
}

Json::Value parameter(const std::string &name, const char *in, const Json::Value &schema,
                      const std::string &description, bool required = false) {
    Json::Value p(Json::objectValue);
    p["name"] = name;
    p["in"] = in;
    p["required"] = required;
    p["schema"] = schema;
    p["description"] = description;
    return p;
}

// An operation of collection c: its success, the errors, and the access rule as x-access.
Json::Value operation(const Collection &c, Operation op, const std::string &summary,
                      const char *status, const Json::Value &success) {
    Json::Value o(Json::objectValue);
    o["operationId"] = std::string(operation_name(op)) + "_" + c.name;
    o["summary"] = summary;
    o["tags"].append(c.name);
    const Rule &rule = c.rule(op);
    static const char *const k_levels[] = {"everyone", "login", "admin", "permission"};
    o["x-access"] = k_levels[static_cast<int>(rule.level)];
    if (!rule.permission.empty())
        o["x-permission"] = c.label + "/" + rule.permission;
    if (rule.own)
        o["x-own"] = true;
    if (rule.level != Rule::Level::everyone)
        o["security"].append(Json::Value(Json::objectValue))["bearer"] =
            Json::Value(Json::arrayValue);
    o["responses"][status] = success;
    for (const char *error : k_error_statuses)
        o["responses"][error] =
            json_response("the error envelope (doc/api.md)", schema_ref("content.envelope"));
    return o;
}

void collection_paths(const Collection &c, Json::Value &paths, Json::Value &schemas) {
    std::string prefix = "content." + c.name + ".";
    Json::Value row = typed("object");
    row["additionalProperties"] = false;
    row["properties"]["id"] = typed("integer");
    row["required"].append("id");
    Json::Value body = typed("object");
    for (const Field *f : answered_fields(c)) {
        row["properties"][f->name] = answer_schema(*f);
        row["required"].append(f->name);
    }
    for (const Field &f : c.fields)
        if (!f.retired)
            body["properties"][f.name] = body_schema(f);
    row["properties"]["create_time"] = time_schema();
    row["properties"]["update_time"] = time_schema();
    row["required"].append("create_time");
    row["required"].append("update_time");
    Json::Value page = typed("object");
    page["additionalProperties"] = false;
    for (const char *member : {"total", "page", "count"}) {
        page["properties"][member] = typed("integer");
        page["required"].append(member);
    }
    page["properties"]["items"] = typed("array");
    page["properties"]["items"]["items"] = schema_ref(prefix + "row");
    page["required"].append("items");
    schemas[prefix + "row"] = row;
    schemas[prefix + "body"] = body;
    schemas[prefix + "page"] = page;

    Json::Value list_parameters(Json::arrayValue);
    list_parameters.append(parameter("page", "query", typed("integer"), "the page, from 0"));
    list_parameters.append(parameter("count", "query", typed("integer"), "rows a page, 1 to 30"));
    list_parameters.append(parameter("sort", "query", typed("string"),
                                     "sort fields, comma-separated, - for descending"));
    list_parameters.append(parameter("q", "query", typed("string"),
                                     "text each search field is searched for, literally"));
    for (const Field &f : c.fields)
        if (f.filter && !f.retired && !f.hidden)
            list_parameters.append(
                parameter("filter[" + f.name + "]", "query", typed("string"),
                          "equal to; also filter[" + f.name + "][eq|ne|gt|gte|lt|lte|in]"));
    Json::Value id = parameter("id", "path", typed("integer"), "the row's id", true);

    std::string base = "/v1/" + c.name;
    Json::Value page_answer = json_response("a page of rows", schema_ref(prefix + "page"));
    Json::Value envelope = json_response("the envelope", schema_ref("content.envelope"));
    Json::Value request_body(Json::objectValue);
    request_body["required"] = true;
    request_body["content"]["application/json"]["schema"] = schema_ref(prefix + "body");

    Json::Value list = operation(c, Operation::list, "list " + c.label, "200", page_answer);
    list["parameters"] = list_parameters;
    Json::Value trash =
        operation(c, Operation::restore, "list deleted " + c.label, "200", page_answer);
    trash["parameters"] = list_parameters;
    Json::Value create = operation(c, Operation::create, "create " + c.label, "201", envelope);
    create["requestBody"] = request_body;
    Json::Value view = operation(c, Operation::view, "one " + c.label, "200",
                                 json_response("the row", schema_ref(prefix + "row")));
    Json::Value update = operation(c, Operation::update, "change " + c.label, "200", envelope);
    update["requestBody"] = request_body;
    update["requestBody"]["required"] = false;
    Json::Value remove =
        operation(c, Operation::remove, "delete " + c.label + " (soft)", "200", envelope);
    Json::Value restore = operation(c, Operation::restore, "restore " + c.label, "200", envelope);

    paths[base]["get"] = list;
    paths[base]["post"] = create;
    paths[base + "/trash"]["get"] = trash;
    paths[base + "/{id}"]["parameters"].append(id);
    paths[base + "/{id}"]["get"] = view;
    paths[base + "/{id}"]["put"] = update;
    paths[base + "/{id}"]["delete"] = remove;
    paths[base + "/{id}/restore"]["parameters"].append(id);
    paths[base + "/{id}/restore"]["post"] = restore;
}

} // namespace

Json::Value openapi(const Declaration &declaration) {
    Json::Value doc(Json::objectValue);
    doc["openapi"] = "3.1.0";
    doc["info"]["title"] = "cms-fcgi: the declared collections";
    doc["info"]["version"] = "1";
    doc["info"]["description"] = "The routes of the collections applied from content_file "
                                 "(doc/content.md). The fixed routes are in doc/openapi.yaml.";
    Json::Value &paths = doc["paths"] = Json::Value(Json::objectValue);
    Json::Value &schemas = doc["components"]["schemas"] = Json::Value(Json::objectValue);
    schemas["content.envelope"] = envelope_schema();
    doc["components"]["securitySchemes"]["bearer"]["type"] = "http";
    doc["components"]["securitySchemes"]["bearer"]["scheme"] = "bearer";
    for (const Collection &c : declaration.collections)
        if (!c.retired)
            collection_paths(c, paths, schemas);
    Json::Value &self = paths["/openapi.json"]["get"];
    self["operationId"] = "get_openapi";
    self["summary"] = "this document";
    self["x-access"] = "everyone";
    self["responses"]["200"] = json_response("the OpenAPI 3.1 document", typed("object"));
    for (const char *error : {"500", "503"})
        self["responses"][error] =
            json_response("the error envelope (doc/api.md)", schema_ref("content.envelope"));
    return doc;
}

} // namespace cms::content
