// Operations routes: /healthz and /readyz.
#include "ops_handlers.h"

#include "context.h"
#include "db.h"
#include "errors.h"
#include "request.h"
#include "response.h"

namespace cms {

namespace {

Response status_ok() {
    Json::Value body(Json::objectValue);
    body["status"] = "ok";
    return Response::json(200, body);
}

} // namespace

Response handle_health_live(const Request &, Ctx &) { return status_ok(); }

Response handle_health_ready(const Request &, Ctx &ctx) {
    if (!ctx.db.ping())
        throw ApiError(503, Code::db_unavailable);
    return status_ok();
}

} // namespace cms
