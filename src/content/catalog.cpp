// The content routes of a worker, made from the applied declaration: the same rows as the fixed
// route table's, with texts this catalog owns and the collection in Route::data.
#include "content/catalog.h"

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
    for (const Collection &c : declaration_.collections) {
        if (c.retired)
            continue;
        const Mount &mount = mounts_.emplace_back(Mount{&c, &declaration_});
        std::string base = "/v1/" + c.name;
        auto access = [&](Operation op, Permission &permission) {
            const Rule &rule = c.rule(op);
            switch (rule.level) {
            case Rule::Level::everyone:
                return Access::everyone;
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
    openapi_ = json::write(content::openapi(declaration_));
    Route openapi{"GET", "/openapi.json", Access::everyone, Permission{}, handle_content_openapi};
    openapi.body_cap = k_no_body;
    openapi.data = this;
    routes_.push_back(openapi);
}

const char *Catalog::keep(std::string text) {
    return texts_.emplace_back(std::move(text)).c_str();
}

Limits limits_of(const Config &config) {
    Limits limits;
    limits.max_collections = config.content_max_collections;
    limits.max_fields = config.content_max_fields;
    return limits;
}

Declaration load_applied(db::Connection &db, const Limits &limits) {
    std::optional<std::string> text = DeclarationStore(db).applied();
    if (!text)
        return Declaration{};
    std::vector<Problem> problems;
    std::optional<Json::Value> document = parse(*text, problems);
    Declaration declaration;
    if (document)
        declaration = read(*document, limits, true, problems);
    if (!problems.empty())
        throw db::WrongSchema("the content declaration applied in the database is not one this "
                              "cms-fcgi can serve (apply one it checks with --setup-db, or run "
                              "the cms-fcgi that applied it): " +
                              problems.front().pointer + ": " + problems.front().rule);
    return declaration;
}

} // namespace cms::content
