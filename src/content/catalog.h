// The applied declaration as a worker serves it: each live collection's routes, rows like those
// of api/routes.cpp made from the declaration, with the permissions they name. Owns every text
// its routes point to; made once per worker, never changed.
#pragma once

#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "content/declaration.h"
#include "http/router.h"

namespace cms {
struct Config;
namespace db {
class Connection;
}
} // namespace cms

namespace cms::content {

// What a content route's Route::data points to: the collection, and the declaration it is part
// of (for its relations' targets).
struct Mount {
    const Collection *collection = nullptr;
    const Declaration *declaration = nullptr;
};

class Catalog {
  public:
    explicit Catalog(Declaration declaration);
    Catalog(const Catalog &) = delete;
    Catalog &operator=(const Catalog &) = delete;

    const Declaration &declaration() const { return declaration_; }
    // Seven routes per live collection (doc/content.md, "Routes"), then GET /openapi.json.
    const std::vector<Route> &routes() const { return routes_; }
    // The collections' OpenAPI document (content/openapi.h), as JSON text: made at the first
    // call (a worker that is never asked for it holds none).
    const std::string &openapi() const;

  private:
    const char *keep(std::string text);

    Declaration declaration_;
    std::deque<std::string> texts_; // a deque never moves what it holds
    std::deque<Mount> mounts_;
    std::vector<Route> routes_;
    mutable std::once_flag openapi_once_;
    mutable std::string openapi_;
};

// The limits of config's content_max_* keys, and the names and permission modules that the
// fixed routes (api/routes.cpp's table) hold.
Limits limits_of(const Config &config, const std::vector<Route> &fixed);

// The labels of every collection of declaration, retired ones included: the permission modules
// that --setup-db's apply mounts and unmounts, and a worker's registration leaves alone.
std::vector<std::string> labels(const Declaration &declaration);

// The permissions the access rules of the live collections name, as (label, name); they point
// into declaration.
std::vector<Permission> live_permissions(const Declaration &declaration);

// labels() of the declaration applied in the database now (none when none was applied), read
// without the checks of load_applied: a worker started before the apply learns of new modules.
std::vector<std::string> applied_labels(db::Connection &db);

// The applied declaration of the database, read and checked by this binary's rules (limits'
// fixed names and modules, not its counts): an empty one when none was applied. Throws
// db::WrongSchema, naming the rule broken, when this binary cannot serve it (a type it does not
// know, say): the pool refuses to start, as for a schema.
Declaration load_applied(db::Connection &db, const Limits &limits);

} // namespace cms::content
