// The content routes of a worker, made from the applied declaration: the same rows as the fixed
// route table's, with texts this catalog owns and the collection in Route::data.
#include "content/catalog.h"

#include <algorithm>
#include <limits>

#include "base/config.h"
#include "base/json.h"
#include "content/content_handlers.h"
#include "content/declaration_store.h"
#include "content/openapi.h"
#include "db/db.h"

namespace cms::content {

namespace {

// Routes whose requests carry no body: as api/routes.cpp's k_no_body.
constexpr int64_t k_no_body = 1024;

} // namespace

Catalog::Catalog(Declaration declaration) : declaration_(std::move(declaration)) {
    // What was declared, as JSON, is the apply's (the stored document); a worker never reads it.
    for (Collection &c : declaration_.collections) {
        c.source = Json::Value();
        for (Field &f : c.fields)
            f.source = Json::Value();
    }
    for (const Collection &c : declaration_.collections) {
        if (c.retired)
            continue;
        const Mount &mount = mounts_.emplace_back(Mount{&c, &declaration_});
        std::string base = "/v1/" + c.name;
        auto access = [&](Operation op, Permission &permission) {
            const Rule &rule = c.rule(op);
            switch (rule.level) {
            case Rule::Level::everyone:
                // A write names its creator when a token comes with it (own rows, the log).
                return op == Operation::list || op == Operation::view ? Access::everyone
                                                                      : Access::anyone_named;
            case Rule::Level::login:
                return Access::login;
            case Rule::Level::admin:
                return Access::admin;
            case Rule::Level::permission:
                permission = Permission{c.label.c_str(), rule.permission.c_str()};
                // Own rows are open to every user: the handler narrows them (own_only).
                return rule.own ? Access::login : Access::group;
            }
            return Access::admin;
        };
        struct Row {
            const char *method;
            std::string pattern;
            Operation op;
            Handler handler;
            const char *log; // the behaviour-log text before the label
            int64_t body_cap;
        };
        const Row rows[] = {
            {"GET", base, Operation::list, handle_content_list, nullptr, k_no_body},
            {"GET", base + "/trash", Operation::restore, handle_content_trash, nullptr, k_no_body},
            {"GET", base + "/{id}", Operation::view, handle_content_get, nullptr, k_no_body},
            {"POST", base, Operation::create, handle_content_create, "{user.username}新建了", 0},
            {"PUT", base + "/{id}", Operation::update, handle_content_update,
             "{user.username}更新了", 0},
            {"DELETE", base + "/{id}", Operation::remove, handle_content_delete,
             "{user.username}删除了", k_no_body},
            {"POST", base + "/{id}/restore", Operation::restore, handle_content_restore,
             "{user.username}恢复了", k_no_body},
        };
        for (const Row &row : rows) {
            Route route{row.method, keep(row.pattern), Access::admin, Permission{}, row.handler};
            route.access = access(row.op, route.permission);
            route.log = row.log == nullptr ? nullptr : keep(std::string(row.log) + c.label);
            route.body_cap = row.body_cap;
            route.data = &mount;
            routes_.push_back(route);
        }
    }
    Route openapi{"GET", "/openapi.json", Access::everyone, Permission{}, handle_content_openapi};
    openapi.body_cap = k_no_body;
    openapi.data = this;
    routes_.push_back(openapi);
}

const std::string &Catalog::openapi() const {
    std::call_once(openapi_once_, [this] { openapi_ = json::write(content::openapi(declaration_)); });
    return openapi_;
}

const char *Catalog::keep(std::string text) {
    return texts_.emplace_back(std::move(text)).c_str();
}

Limits limits_of(const Config &config, const std::vector<Route> &fixed) {
    Limits limits;
    limits.max_collections = config.content_max_collections;
    limits.max_fields = config.content_max_fields;
    auto add = [](std::vector<std::string> &list, std::string item) {
        if (std::find(list.begin(), list.end(), item) == list.end())
            list.push_back(std::move(item));
    };
    for (const Route &route : fixed) {
        std::string pattern = route.pattern;
        if (pattern.rfind("/v1/", 0) == 0)
            add(limits.fixed_names, pattern.substr(4, pattern.find('/', 4) - 4));
        if (route.permission.module != nullptr)
            add(limits.fixed_modules, route.permission.module);
    }
    return limits;
}

std::vector<std::string> labels(const Declaration &declaration) {
    std::vector<std::string> out;
    for (const Collection &c : declaration.collections)
        if (std::find(out.begin(), out.end(), c.label) == out.end())
            out.push_back(c.label);
    return out;
}

std::vector<Permission> live_permissions(const Declaration &declaration) {
    std::vector<Permission> out;
    for (const Collection &c : declaration.collections)
        for (int op = 0; op < k_operations && !c.retired; ++op) {
            const Rule &rule = c.access[op];
            if (rule.level != Rule::Level::permission)
                continue;
            bool known = std::any_of(out.begin(), out.end(), [&](const Permission &p) {
                return c.label == p.module && rule.permission == p.name;
            });
            if (!known)
                out.push_back(Permission{c.label.c_str(), rule.permission.c_str()});
        }
    return out;
}

std::vector<std::string> applied_labels(db::Connection &db) {
    std::optional<std::string> text = DeclarationStore(db).applied();
    std::vector<Problem> problems;
    std::optional<Json::Value> document = text ? parse(*text, problems) : std::nullopt;
    if (!document)
        return {};
    Limits any;
    any.max_collections = any.max_fields = std::numeric_limits<int64_t>::max();
    return labels(read(*document, any, true, problems));
}

Declaration load_applied(db::Connection &db, const Limits &limits) {
    std::optional<std::string> text = DeclarationStore(db).applied();
    if (!text)
        return Declaration{};
    std::vector<Problem> problems;
    std::optional<Json::Value> document = parse(*text, problems);
    // What was applied is served whatever the limits are now: they bound what an apply adds.
    Limits serving = limits;
    serving.max_collections = serving.max_fields = std::numeric_limits<int64_t>::max();
    Declaration declaration;
    if (document)
        declaration = read(*document, serving, true, problems);
    if (!problems.empty())
        throw db::WrongSchema("the content declaration applied in the database is not one this "
                              "cms-fcgi can serve (apply one it checks with --setup-db, or run "
                              "the cms-fcgi that applied it): " +
                              problems.front().pointer + ": " + problems.front().rule);
    return declaration;
}

} // namespace cms::content
